// A sub-agent definition's `model` as users' files write it. Claude Code's agent files say `sonnet`,
// `opus` or `haiku` (its aliases for the current model of each family; `inherit` is dropped when the
// file is read): read as a Sextant reference, "sonnet" would be an unknown provider and every such
// sub-agent would fail. An alias picks a configured model of that family — the parent's provider first,
// then any other with a key — and, when none is configured, the parent's own model, said so in the card.
// A slash command's `model` is read the same way (its own aliases, `inherit`, or a bare Claude model id
// such as `claude-3-5-haiku-20241022`: that model where configured, else one of its family).
import type { Mode, ModelChoice } from '../../protocol';
import type { ModelServices } from './chat-services';
import { modelRefFor } from './run-target';

/** Claude Code's model aliases and the family name their model ids hold (`opusplan` runs Opus). */
const ALIASES: Readonly<Record<string, string>> = { sonnet: 'sonnet', opus: 'opus', haiku: 'haiku', opusplan: 'opus' };
const FAMILIES = ['haiku', 'sonnet', 'opus'] as const;

export interface SubagentModel {
  ref: string;
  /** Why the reference is not the one the file names (shown beside the sub-agent's model). */
  note?: string;
}

export async function subagentModelRef(
  wanted: string,
  parentRef: string,
  choices: () => Promise<ModelChoice[]>,
): Promise<SubagentModel> {
  const name = wanted.trim().toLowerCase();
  if (name === 'inherit' || name === '') return { ref: parentRef };
  const bareClaudeId = /^claude-[\w.-]+$/.test(name);
  const family = ALIASES[name] ?? (bareClaudeId ? FAMILIES.find((f) => name.includes(f)) : undefined);
  if (!family && !bareClaudeId) return { ref: wanted };
  const usable = (await choices().catch(() => [] as ModelChoice[])).filter((c) => c.hasKey && !c.unavailable);
  const provider = providerOf(parentRef);
  if (bareClaudeId) {
    // The very model, where a configured provider serves it (`openrouter/anthropic/…` ends with it).
    const exact = usable.filter((c) => {
      const id = modelId(c.ref).toLowerCase();
      return id === name || id.endsWith(`/${name}`);
    });
    const same = exact.find((c) => providerOf(c.ref) === provider) ?? exact[0];
    if (same) return { ref: same.ref };
  }
  if (!family)
    return { ref: parentRef, note: `${wanted} is not configured: "model: ${wanted}" runs on the chat's model` };
  const ofFamily = usable.filter((c) => modelId(c.ref).toLowerCase().includes(family));
  const pick = ofFamily.find((c) => providerOf(c.ref) === provider) ?? ofFamily[0];
  if (pick) return { ref: pick.ref };
  return { ref: parentRef, note: `no ${family} model is configured: "model: ${wanted}" runs on the chat's model` };
}

function providerOf(ref: string): string {
  const slash = ref.indexOf('/');
  return slash < 0 ? ref : ref.slice(0, slash);
}

function modelId(ref: string): string {
  const slash = ref.indexOf('/');
  return slash < 0 ? '' : ref.slice(slash + 1);
}

/**
 * A slash command's `model` as Claude Code's files write it (`haiku`, `inherit`, `claude-3-5-haiku-…`), read
 * against the configured providers exactly as a sub-agent's is, from the model the chat's request would use.
 */
export function commandModelRef(
  models: Parameters<typeof modelRefFor>[0] & Pick<ModelServices, 'modelChoices'>,
  chatModel: string,
  mode: Mode,
  wanted: string,
): Promise<SubagentModel> {
  return subagentModelRef(wanted, modelRefFor(models, chatModel, mode), () => models.modelChoices());
}
