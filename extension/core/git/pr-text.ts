// A pull request's title and body from the session that made the change: its title, what the agent
// said it did (its last answer), the commits, and the review's findings when /review ran. Written here,
// not by another model call, so it costs nothing and says only what the session said.
export interface SessionSummary {
  /** The session's title (the history list's). */
  title: string;
  /** The agent's last answer, or the user's own summary. */
  summary?: string;
  /** The /review answer, when the session ran one. */
  review?: string;
}

const BODY_PART_MAX = 6_000;

export function pullRequestText(s: SessionSummary, commits: string[]): { title: string; body: string } {
  const title = (commits.length === 1 ? commits[0] : s.title)?.trim() || s.title.trim() || 'Changes';
  const parts: string[] = [];
  if (s.summary?.trim()) parts.push(`## Summary\n\n${cap(s.summary.trim())}`);
  if (commits.length) parts.push(`## Commits\n\n${commits.map((c) => `- ${c}`).join('\n')}`);
  if (s.review?.trim()) parts.push(`## Review\n\n${cap(s.review.trim())}`);
  parts.push('_Made with Sextant._');
  return { title: title.slice(0, 120), body: parts.join('\n\n') };
}

function cap(text: string): string {
  return text.length > BODY_PART_MAX ? `${text.slice(0, BODY_PART_MAX)}…` : text;
}
