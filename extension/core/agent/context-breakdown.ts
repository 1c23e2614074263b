// The context meter's figures: the next request as it stands now (system prompt with rules and skills,
// tool definitions, the model-facing history) estimated exactly as compaction estimates it, split into
// the parts the user can act on. The parts add up to the total by construction: each split is a whole
// estimate minus its measured sub-parts, never a second rounding.
import { ATTACHMENTS_HEADER, type ContextBreakdown, latestCompaction, type Mode } from '../../protocol';
import { rulesSection } from '../extensions/project-prompt';
import { skillsSection } from '../extensions/skills';
import type { ModelMessage } from '../providers/types';
import type { ToolSpec } from '../providers/types';
import { estimateTextTokens } from '../util/tokens';
import { turnPrompt } from './agent-turn';
import type { ChatServices } from './chat-services';
import {
  COMPACT_AT,
  DEFAULT_CONTEXT_WINDOW,
  estimateMessagesTokens,
  estimatePromptTokens,
  modelFacingHistory,
} from './compaction';
import type { LiveSession } from './live-session';
import { modelRefFor } from './run-target';

export interface PromptParts {
  system: string;
  rulesText: string;
  skillsText: string;
  tools: readonly ToolSpec[];
  history: readonly ModelMessage[];
}

/** Tokens of `@` attachments in the history: the part of each user message from the attachments header on. */
export function attachmentTokens(history: readonly ModelMessage[]): number {
  let n = 0;
  for (const m of history) {
    if (m.role !== 'user' || typeof m.content !== 'string') continue;
    const at = m.content.indexOf(`\n\n${ATTACHMENTS_HEADER}`);
    if (at >= 0) n += estimateTextTokens(m.content) - estimateTextTokens(m.content.slice(0, at));
  }
  return n;
}

/** The split of one prompt; `total` is estimatePromptTokens of the same parts. */
export function splitPrompt(p: PromptParts): Pick<ContextBreakdown, 'total' | 'parts'> {
  const total = estimatePromptTokens(p.system, p.tools, p.history);
  const rules = p.rulesText ? estimateTextTokens(p.rulesText) : 0;
  const skills = p.skillsText ? estimateTextTokens(p.skillsText) : 0;
  const systemAll = estimateTextTokens(p.system);
  const mcpSpecs = p.tools.filter((t) => t.name.startsWith('mcp__'));
  const mcpTools = mcpSpecs.length ? estimateTextTokens(JSON.stringify(mcpSpecs)) : 0;
  const toolsAll = estimateTextTokens(JSON.stringify(p.tools));
  const attachments = attachmentTokens(p.history);
  const messages = estimateMessagesTokens(p.history);
  const parts: ContextBreakdown['parts'] = [
    { name: 'system', tokens: Math.max(0, systemAll - rules - skills) },
    { name: 'rules', tokens: Math.min(rules, systemAll) },
    { name: 'skills', tokens: Math.min(skills, Math.max(0, systemAll - rules)) },
    { name: 'tools', tokens: Math.max(0, toolsAll - mcpTools) },
    { name: 'mcpTools', tokens: Math.min(mcpTools, toolsAll) },
    { name: 'conversation', tokens: Math.max(0, messages - attachments) },
    { name: 'attachments', tokens: Math.min(attachments, messages) },
  ];
  return { total, parts };
}

/** The breakdown of the chat's next request in `mode` (its own model for Plan when a planner is set). */
export async function contextBreakdown(s: LiveSession, services: ChatServices, mode: Mode): Promise<ContextBreakdown> {
  const ref = modelRefFor(services.models, s.model, mode);
  // Never through resolveModel where the host can say without it: making a client checks where the key
  // may go, which can ask the user in a modal — the meter must not (seen: a key bound to another host).
  const config = services.models.modelConfig
    ? services.models.modelConfig(ref)
    : (await services.models.resolveModel(ref)).config;
  const window = config?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  const prompt = await turnPrompt(services, mode, s.createdAt || services.host.now());
  const history = modelFacingHistory(s.modelMessages, latestCompaction(s.chat));
  const split = splitPrompt({
    system: prompt.system,
    rulesText: rulesSection(prompt.rules),
    skillsText: skillsSection(prompt.skills),
    tools: prompt.tools?.specs() ?? [],
    history,
  });
  return {
    model: ref,
    window,
    compactAt: Math.round(COMPACT_AT * window),
    ...split,
    ...(s.lastPrompt ? { lastReported: s.lastPrompt.tokens } : {}),
  };
}
