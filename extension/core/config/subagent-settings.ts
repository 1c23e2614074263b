// sextant.agents.* (sub-agents' caps) and sextant.budget.maxCostUsdPerMinute, checked and clamped.
// They decide how much runs unasked, so they are read from user settings only.
import { capValue } from '../usage/budget';

export interface SubagentSettings {
  /** sextant.agents.maxConcurrent: sub-agents running at once (1–16, default 4). */
  maxConcurrent: number;
  /** sextant.agents.maxSteps: model calls one sub-agent may make (1–200, default 25). */
  maxSteps: number;
  /** sextant.agents.maxCostUsd: dollars one sub-agent may spend (default 1; null or 0: no cap of its own). */
  maxCostUsd: number | undefined;
  /** sextant.budget.maxCostUsdPerMinute: the spend-rate warning (undefined: none). */
  maxCostUsdPerMinute: number | undefined;
}

export const SUBAGENT_DEFAULTS = { maxConcurrent: 4, maxSteps: 25, maxCostUsd: 1 } as const;

function intIn(raw: unknown, min: number, max: number, fallback: number): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(raw)));
}

export function parseSubagentSettings(raw: {
  maxConcurrent?: unknown;
  maxSteps?: unknown;
  maxCostUsd?: unknown;
  maxCostUsdPerMinute?: unknown;
}): SubagentSettings {
  return {
    maxConcurrent: intIn(raw.maxConcurrent, 1, 16, SUBAGENT_DEFAULTS.maxConcurrent),
    maxSteps: intIn(raw.maxSteps, 1, 200, SUBAGENT_DEFAULTS.maxSteps),
    maxCostUsd: raw.maxCostUsd === undefined ? SUBAGENT_DEFAULTS.maxCostUsd : capValue(raw.maxCostUsd),
    maxCostUsdPerMinute: capValue(raw.maxCostUsdPerMinute),
  };
}
