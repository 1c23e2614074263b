// sextant.research.clarify / .includeDomains / .excludeDomains / .recencyDays / .subResearchers as a
// run's defaults: a bad domain is left out and said in `problems` (the rest still apply), a recency of 0
// or less means any date, an unknown clarify value means the default (auto).
import type { SourceFilters } from '../../protocol';
import { normalizeDomain } from '../web/search/domains';

export interface ResearchDefaults {
  clarify: 'auto' | 'never';
  filters: SourceFilters;
  problems: string[];
}

export function researchDefaults(raw: {
  clarify?: unknown;
  includeDomains?: unknown;
  excludeDomains?: unknown;
  recencyDays?: unknown;
}): ResearchDefaults {
  const problems: string[] = [];
  const domains = (v: unknown, key: string): string[] => {
    const out: string[] = [];
    for (const item of Array.isArray(v) ? v : []) {
      const d = typeof item === 'string' ? normalizeDomain(item) : { ok: false as const, error: 'not a string' };
      if (d.ok) {
        if (!out.includes(d.domain)) out.push(d.domain);
      } else problems.push(`sextant.research.${key}: ${d.error}; left out.`);
    }
    return out.slice(0, 50);
  };
  const include = domains(raw.includeDomains, 'includeDomains');
  // A host both kept to and left out is left out (the safer reading).
  const exclude = domains(raw.excludeDomains, 'excludeDomains');
  const kept = include.filter((d) => !exclude.includes(d));
  const days =
    typeof raw.recencyDays === 'number' && Number.isFinite(raw.recencyDays) && raw.recencyDays > 0
      ? Math.min(36500, Math.round(raw.recencyDays))
      : undefined;
  return {
    clarify: raw.clarify === 'never' ? 'never' : 'auto',
    filters: {
      ...(kept.length ? { includeDomains: kept } : {}),
      ...(exclude.length ? { excludeDomains: exclude } : {}),
      ...(days ? { recencyDays: days } : {}),
    },
    problems,
  };
}
