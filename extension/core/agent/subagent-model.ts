// A sub-agent definition's `model` as users' files write it. Claude Code's agent files say `sonnet`,
// `opus` or `haiku` (its aliases for the current model of each family; `inherit` is dropped when the
// file is read): read as a Sextant reference, "sonnet" would be an unknown provider and every such
// sub-agent would fail. An alias picks a configured model of that family — the parent's provider first,
// then any other with a key — and, when none is configured, the parent's own model, said so in the card.
import type { ModelChoice } from '../../protocol';

/** Claude Code's model aliases and the family name their model ids hold (`opusplan` runs Opus). */
const ALIASES: Readonly<Record<string, string>> = { sonnet: 'sonnet', opus: 'opus', haiku: 'haiku', opusplan: 'opus' };

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
  const family = ALIASES[wanted.trim().toLowerCase()];
  if (!family) return { ref: wanted };
  const usable = (await choices().catch(() => [] as ModelChoice[])).filter((c) => c.hasKey && !c.unavailable);
  const ofFamily = usable.filter((c) => modelId(c.ref).toLowerCase().includes(family));
  const provider = providerOf(parentRef);
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
