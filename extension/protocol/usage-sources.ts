// Where an answer's spending went: the chat itself, each sub-agent, auto mode's reviewer, each research
// phase, compaction. An answer's usage is one running total (sub-agents' and the reviewer's calls are
// folded into it so the caps see them); this splits it back into its sources, for the Usage view.
import * as z from 'zod';
import type { ChatMessage } from './model';
import type { Usage } from './spend';

export const USAGE_SOURCES = ['chat', 'subagent', 'reviewer', 'research', 'compaction'] as const;
export const UsageSourceSchema = z.enum(USAGE_SOURCES);
export type UsageSource = z.infer<typeof UsageSourceSchema>;

/** What one source of one message spent. */
export interface UsageSlice {
  source: UsageSource;
  /** The sub-agent's name, the research phase; '' for the others. */
  label: string;
  /** `provider/model`; '' when unknown. */
  model: string;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** Undefined: the price was unknown (the slice is counted in tokens only). */
  costUsd: number | undefined;
}

/**
 * Splits a message's usage into its sources. Sub-agents and the reviewer are taken out of the answer's
 * total and the rest is the chat's (a research run's whole total is research, by phase when the run
 * recorded its phases). A compaction's summarising call is not in the answer's total: it is its own slice.
 * The rest never goes below zero: a sub-agent stopped before its spending was folded into the parent's
 * total is still counted whole, as it was paid for.
 */
export function usageSlices(m: ChatMessage): UsageSlice[] {
  const model = m.model ?? '';
  const out: UsageSlice[] = [];
  const u = m.usage;
  if (u) {
    // Phases are only recorded by research runs (a Plan Research request runs in Plan mode).
    const phases = Object.entries(u.phases ?? {});
    const research = m.mode === 'research';
    if (phases.length) {
      for (const [phase, p] of phases) out.push(slice('research', phase, model, p));
    } else {
      const parts: UsageSlice[] = [];
      for (const p of m.parts) {
        const sub = p.type === 'tool' ? p.call.subagent : undefined;
        if (sub?.usage) parts.push(slice('subagent', sub.name, sub.model ?? model, sub.usage));
      }
      if (u.review?.calls)
        parts.push(slice('reviewer', '', reviewerModel(m) ?? model, { cachedTokens: 0, ...u.review }));
      out.push(remainder(research ? 'research' : 'chat', model, u, parts), ...parts);
    }
  }
  for (const p of m.parts)
    if (p.type === 'compaction' && p.compaction.usage) out.push(slice('compaction', '', model, p.compaction.usage));
  return out.filter((s) => s.inputTokens || s.outputTokens || s.cachedTokens || s.costUsd);
}

type Figures = Pick<Usage, 'inputTokens' | 'outputTokens' | 'costUsd'> & { cachedTokens?: number };

function slice(source: UsageSource, label: string, model: string, f: Figures): UsageSlice {
  return {
    source,
    label,
    model,
    inputTokens: f.inputTokens,
    cachedTokens: f.cachedTokens ?? 0,
    outputTokens: f.outputTokens,
    costUsd: f.costUsd,
  };
}

function remainder(source: UsageSource, model: string, total: Usage, parts: readonly UsageSlice[]): UsageSlice {
  const minus = (get: (s: Figures) => number) => Math.max(0, get(total) - parts.reduce((sum, p) => sum + get(p), 0));
  const partsCost = parts.every((p) => p.costUsd !== undefined)
    ? parts.reduce((sum, p) => sum + (p.costUsd ?? 0), 0)
    : undefined;
  const cost =
    total.costUsd === undefined || partsCost === undefined ? total.costUsd : Math.max(0, total.costUsd - partsCost);
  return {
    source,
    label: '',
    model,
    inputTokens: minus((f) => f.inputTokens),
    cachedTokens: minus((f) => f.cachedTokens ?? 0),
    outputTokens: minus((f) => f.outputTokens),
    costUsd: cost === undefined ? undefined : round(cost),
  };
}

/** The reviewer model named on the message's reviewed tool cards (the first that names one). */
function reviewerModel(m: ChatMessage): string | undefined {
  for (const p of m.parts) if (p.type === 'tool' && p.call.review?.model) return p.call.review.model;
  return undefined;
}

/** Subtracting dollars leaves float dust (0.30000000000000004 − 0.1): keep 1e-9 dollars. */
const round = (n: number) => Math.round(n * 1e9) / 1e9;
