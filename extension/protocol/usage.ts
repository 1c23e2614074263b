// Usage of a whole session (the header's figure, the exports' totals) and how usage is written for
// people. Shared by the webview and the host so the chat and the exports say the same thing.
import type { ChatMessage } from './model';
import type { Usage } from './spend';

export interface UsageTotal {
  inputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Undefined when any answer's price was unknown: a partial sum would be a made-up figure. */
  costUsd: number | undefined;
  /** Answers that reported usage. */
  answers: number;
  /** Auto mode's reviewer calls, a part of the figures above (absent: none). */
  review?: Usage['review'];
}

export function sessionUsage(messages: readonly ChatMessage[]): UsageTotal {
  const total: UsageTotal = {
    inputTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
    answers: 0,
  };
  for (const { usage: u, answer } of spending(messages)) {
    if (answer) total.answers++;
    total.inputTokens += u.inputTokens;
    total.cachedTokens += u.cachedTokens;
    total.cacheWriteTokens += u.cacheWriteTokens ?? 0;
    total.outputTokens += u.outputTokens;
    total.reasoningTokens += u.reasoningTokens ?? 0;
    total.costUsd = total.costUsd === undefined || u.costUsd === undefined ? undefined : total.costUsd + u.costUsd;
    if (u.review) {
      const r = total.review ?? { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
      total.review = {
        calls: r.calls + u.review.calls,
        inputTokens: r.inputTokens + u.review.inputTokens,
        outputTokens: r.outputTokens + u.review.outputTokens,
        ...(r.costUsd === undefined || u.review.costUsd === undefined ? {} : { costUsd: r.costUsd + u.review.costUsd }),
      };
    }
  }
  return total;
}

/**
 * Every model call a session paid for: each answer's usage, and each compaction's summarising call
 * (not an answer, but spent all the same — leaving it out would hide what compaction costs).
 */
export function* spending(messages: readonly ChatMessage[]): Generator<{ usage: Usage; answer: boolean }> {
  for (const m of messages) {
    if (m.usage) yield { usage: m.usage, answer: true };
    for (const p of m.parts)
      if (p.type === 'compaction' && p.compaction.usage) yield { usage: p.compaction.usage, answer: false };
  }
}

/** 950, 12.3k, 4.56M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 2 : 1).replace(/\.?0+$/, '')}k`;
  return `${(n / 1_000_000).toFixed(2).replace(/\.?0+$/, '')}M`;
}

/** Dollars with enough digits to see a cheap turn: $0.0004, $0.012, $1.23. */
export function formatUsd(n: number): string {
  if (n === 0) return '$0';
  if (n < 0.01) return `$${n.toFixed(4)}`;
  if (n < 1) return `$${n.toFixed(3)}`;
  return `$${n.toFixed(2)}`;
}

/**
 * One line: "12.3k in (10k cached) · 450 out (300 reasoning) · $0.012" — or "· price unknown" — and,
 * in auto mode, the reviewer's part apart: "· of which reviewer: 3 calls, $0.0004".
 */
export function usageLine(
  u: Pick<
    Usage,
    'inputTokens' | 'cachedTokens' | 'cacheWriteTokens' | 'outputTokens' | 'reasoningTokens' | 'costUsd' | 'review'
  >,
): string {
  const parts = [
    u.cachedTokens ? `${formatTokens(u.cachedTokens)} cached` : '',
    u.cacheWriteTokens ? `${formatTokens(u.cacheWriteTokens)} written to cache` : '',
  ].filter(Boolean);
  const cached = parts.length ? ` (${parts.join(', ')})` : '';
  const reasoning = u.reasoningTokens ? ` (${formatTokens(u.reasoningTokens)} reasoning)` : '';
  const cost = u.costUsd === undefined ? 'price unknown' : formatUsd(u.costUsd);
  const r = u.review;
  const review = r?.calls
    ? ` · of which reviewer: ${r.calls} call${r.calls === 1 ? '' : 's'}, ` +
      (r.costUsd === undefined ? `${formatTokens(r.inputTokens + r.outputTokens)} tokens` : formatUsd(r.costUsd))
    : '';
  const line = `${formatTokens(u.inputTokens)} in${cached} · ${formatTokens(u.outputTokens)} out${reasoning} · ${cost}`;
  return line + review;
}
