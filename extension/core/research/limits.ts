// sextant.research.minSearches / .maxSearches / .timeBudgetSeconds as the loop's limits: numbers
// outside a sane range are clamped (a typo must not start a thousand searches), min never above max.
import { DEFAULT_LIMITS, type ResearchLimits } from './loop/research-run';

function intIn(v: unknown, lo: number, hi: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.round(v))) : fallback;
}

export function researchLimits(raw: {
  minSearches?: unknown;
  maxSearches?: unknown;
  timeBudgetSeconds?: unknown;
}): ResearchLimits {
  const maxSearches = intIn(raw.maxSearches, 1, 30, DEFAULT_LIMITS.maxSearches);
  const minSearches = Math.min(maxSearches, intIn(raw.minSearches, 1, 30, DEFAULT_LIMITS.minSearches));
  const timeBudgetMs = intIn(raw.timeBudgetSeconds, 10, 3600, DEFAULT_LIMITS.timeBudgetMs / 1000) * 1000;
  return { ...DEFAULT_LIMITS, minSearches, maxSearches, timeBudgetMs };
}
