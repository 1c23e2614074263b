// sextant.research.minSearches / .maxSearches / .timeBudgetSeconds as the loop's limits: numbers
// outside a sane range are clamped (a typo must not start a thousand searches), min never above max.
import { DEFAULT_LIMITS, type ResearchLimits } from './loop/research-run';

/** sextant.research.subResearchers' default: three sub-questions researched at once. */
export const DEFAULT_SUB_RESEARCHERS = 3;

function intIn(v: unknown, lo: number, hi: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, Math.round(v))) : fallback;
}

export function researchLimits(raw: {
  minSearches?: unknown;
  maxSearches?: unknown;
  timeBudgetSeconds?: unknown;
  subResearchers?: unknown;
}): ResearchLimits {
  const maxSearches = intIn(raw.maxSearches, 1, 30, DEFAULT_LIMITS.maxSearches);
  const minSearches = Math.min(maxSearches, intIn(raw.minSearches, 1, 30, DEFAULT_LIMITS.minSearches));
  const timeBudgetMs = intIn(raw.timeBudgetSeconds, 10, 3600, DEFAULT_LIMITS.timeBudgetMs / 1000) * 1000;
  const subResearchers = intIn(raw.subResearchers, 1, 6, DEFAULT_SUB_RESEARCHERS);
  return { ...DEFAULT_LIMITS, minSearches, maxSearches, timeBudgetMs, subResearchers };
}
