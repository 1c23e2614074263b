// A worktree's branch and folder name come from the session: a safe slug of its title and the first
// six characters of its id (`sextant/fix-login-bug-3f9a2c`), so a branch list and a folder listing
// say which session made what. The slug keeps what `git check-ref-format` and every file system accept
// (lower-case ASCII letters, digits, single dashes); the id keeps two sessions with one title apart.

export const BRANCH_PREFIX = 'sextant/';
const MAX_SLUG = 40;

/** `title` as lower-case ASCII words joined by dashes, at most MAX_SLUG characters; "session" if none. */
export function titleSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
  return slug || 'session';
}

/** The first six safe characters of a session id (letters and digits only). */
export function shortId(sessionId: string): string {
  const id = sessionId.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (!id) throw new Error('a worktree needs a session id with at least one letter or digit');
  return id.slice(0, 6);
}

/** `<slug>-<id6>`, with `-2`, `-3` … for the n-th try when the first is taken. */
export function worktreeName(title: string, sessionId: string, attempt = 1): string {
  const name = `${titleSlug(title)}-${shortId(sessionId)}`;
  return attempt > 1 ? `${name}-${attempt}` : name;
}
