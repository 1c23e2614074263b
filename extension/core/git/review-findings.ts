// /review's findings read back from its answer (prompts/review.md asks for one line each:
// `- **severity** [path:line](path#Lline) — the problem and the fix.`), so the editor can put each
// beside its line (a comment with "Apply Fix") and in the Problems view. A line the reviewer wrote
// another way is skipped, not guessed at; paths stay relative to the workspace and are checked there.
export type FindingSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface ReviewFinding {
  /** As the reviewer wrote it, relative to the workspace folder. */
  path: string;
  /** 1-based. */
  line: number;
  severity: FindingSeverity;
  /** The problem and the fix, as one sentence or two. */
  message: string;
}

const SEVERITIES: Record<string, FindingSeverity> = {
  critical: 'critical',
  blocker: 'critical',
  high: 'high',
  major: 'high',
  error: 'high',
  medium: 'medium',
  moderate: 'medium',
  warning: 'medium',
  low: 'low',
  minor: 'low',
  nit: 'info',
  info: 'info',
  note: 'info',
};

/** `- **high** [src/a.ts:12](src/a.ts#L12) — text` (the link may also be plain `src/a.ts:12`). */
const FINDING = new RegExp(
  [
    '^\\s*(?:[-*]|\\d+[.)])\\s+\\*{0,2}\\[?([A-Za-z]+)\\]?\\*{0,2}:?\\s+', // - **severity**
    '(?:\\[([^\\]]+?):(\\d+)(?:[-–]\\d+)?\\]\\([^)]*\\)', // [path:line](…)
    '|`?([^\\s`]+?):(\\d+)(?:[-–]\\d+)?`?)', // or path:line
    '\\s*(?:[—–:-]+\\s*)?(.+)$', // — the text
  ].join(''),
);

export function parseReviewFindings(answer: string): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  for (const raw of answer.split(/\r?\n/)) {
    const m = FINDING.exec(raw);
    if (!m) continue;
    const severity = SEVERITIES[(m[1] ?? '').toLowerCase()];
    const file = m[2] ?? m[4] ?? '';
    const line = Number(m[3] ?? m[5]);
    const message = (m[6] ?? '').trim();
    if (!severity || !file || !Number.isInteger(line) || line < 1 || !message) continue;
    if (file.startsWith('/') || file.split(/[\\/]/).includes('..') || /^[a-z]+:/i.test(file)) continue;
    out.push({ path: file.replace(/^\.\//, ''), line, severity, message });
  }
  return out;
}

/** The message "Apply Fix" sends the agent: a normal request, so the edit comes as a reviewed diff. */
export function applyFixPrompt(f: ReviewFinding): string {
  return (
    `Apply this fix from the code review to ${f.path} at line ${f.line} (${f.severity}): ${f.message}\n` +
    'Change only what this finding needs, with the file tools (the change is shown to me as a diff to review).'
  );
}
