// The reviewer's answer, read strictly: one JSON object with "decision" allow or ask and a one-line
// "reason". Anything else — prose, a missing reason, another decision, several objects that disagree —
// is malformed, and a malformed answer asks the user.
export interface Verdict {
  decision: 'allow' | 'ask';
  /** One line, as shown on the tool card and written in the audit log. */
  reason: string;
}

const MAX_REASON = 200;

export function parseVerdict(text: string): Verdict | undefined {
  const objects = text.match(/\{[^{}]*\}/g) ?? [];
  const verdicts: Verdict[] = [];
  for (const raw of objects) {
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    const { decision, reason } = v as Record<string, unknown>;
    if ((decision !== 'allow' && decision !== 'ask') || typeof reason !== 'string') continue;
    const line = reason.replace(/\s+/g, ' ').trim();
    if (!line) continue;
    verdicts.push({ decision, reason: line.length > MAX_REASON ? `${line.slice(0, MAX_REASON - 1)}…` : line });
  }
  if (verdicts.length === 0) return undefined;
  // Two answers that disagree are no answer.
  if (verdicts.some((v) => v.decision !== verdicts[0].decision)) return undefined;
  return verdicts[0];
}
