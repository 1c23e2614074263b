// The model picker's reasoning choices as the host keeps them (a map from model reference to level).
// Stored state is read back through this parse: a damaged or old value loses nothing else.
import { ReasoningChoiceSchema, type ReasoningChoice } from '../../protocol';

/** The key in VS Code's global state. */
export const REASONING_STATE_KEY = 'sextant.reasoningByModel';

/** The valid entries of a stored value; anything else is dropped. */
export function reasoningChoicesIn(raw: unknown): Record<string, ReasoningChoice> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const out: Record<string, ReasoningChoice> = {};
  for (const [ref, value] of Object.entries(raw)) {
    const parsed = ReasoningChoiceSchema.safeParse(value);
    if (parsed.success && parsed.data !== 'off') out[ref] = parsed.data;
  }
  return out;
}
