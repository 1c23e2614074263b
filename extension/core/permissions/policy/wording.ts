// How a decision says why, in the user's words: which rule, in which settings file, did what to what.
// Every part of the policy words its answers through these, so a reason reads the same wherever it
// comes from.
import type { Decision } from '../types';
import type { CompiledRule } from './rules';

export const where = (r: CompiledRule) => (r.source === 'user' ? 'your settings' : '.sextant/settings.json');

/** A path, command or URL as a reason quotes it: in backticks, long ones cut. */
export const quote = (s: string) => `\`${s.length > 80 ? `${s.slice(0, 77)}…` : s}\``;

export function ruleDecision(decision: Decision['decision'], r: CompiledRule, what?: string): Decision {
  const verb = decision === 'allow' ? 'allows' : decision === 'deny' ? 'denies' : 'asks for';
  return {
    decision,
    reason: `${r.text} in ${where(r)} ${verb} ${what ?? 'it'}`,
    rule: r.text,
    source: 'rule',
  };
}

export const result = (decision: Decision['decision'], source: Decision['source'], reason: string): Decision => ({
  decision,
  reason,
  source,
});
