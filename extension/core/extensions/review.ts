// `/review [branch or range]`: the working tree's diff against HEAD (or `git diff <range>`) handed to the
// `reviewer` sub-agent in Plan mode (read-only), with a security pass, findings reported as
// `path:line` links with a severity (prompts/review.md). git runs with external diff drivers and
// textconv filters off, so a repository's config cannot make the diff run a program of its choosing.
// The working tree's review adds untracked, non-ignored files as new-file diffs (untracked-files.ts).
import reviewTemplate from '../../../prompts/review.md';
import { runGit } from '../checkpoints/git-repo';
import { readableDiff, withheldNote } from './readable-diff';
import { defaultMayRead, type MayRead, untrackedDiff } from './untracked-files';

/** Most of the diff put in the prompt; the rest is named as left out (the reviewer can read files). */
export const REVIEW_DIFF_MAX = 200_000;
/** A revision or range as git takes it: no option (leading -), no spaces or shell characters. */
const RANGE = /^[\w./@^~{}-]+(?:\.\.\.?[\w./@^~{}-]+)?$/;

export type ReviewDiff = (
  range: string | undefined,
) => Promise<{ ok: true; diff: string } | { ok: false; message: string }>;

/**
 * `git diff` in the first workspace folder; for the working tree, with its untracked files as new
 * files, each read only when `mayRead` (read_file's judgement: allowed without asking) says so.
 */
export function gitReviewDiff(root: () => string | undefined, mayRead?: MayRead): ReviewDiff {
  return async (range) => {
    const cwd = root();
    if (!cwd) return { ok: false, message: '/review needs an open folder (a git repository).' };
    if (range !== undefined && (!RANGE.test(range) || range.startsWith('-')))
      return { ok: false, message: `"${range}" is not a branch, commit or range (like main..HEAD).` };
    const args = ['-c', 'core.fsmonitor=false', 'diff', '--no-ext-diff', '--no-textconv', '--no-color'];
    try {
      // A bad range fails here, with git's reason; the diff itself leaves out what the read rules refuse
      // (a tracked .env, a file behind a deny rule), named in a note (readable-diff.ts).
      await runGit(cwd, [...args, '--name-only', '-z', range ?? 'HEAD', '--']);
      const judge = mayRead ?? defaultMayRead(cwd);
      const tracked = await readableDiff(cwd, range ?? 'HEAD', judge);
      const note = withheldNote(tracked.withheld);
      const added = range === undefined ? await untrackedDiff(cwd, judge) : '';
      return { ok: true, diff: [tracked.diff, added, note].filter((x) => x.trim()).join('\n') };
    } catch (err) {
      return { ok: false, message: `/review could not read the diff: ${String((err as Error).message ?? err)}` };
    }
  };
}

/** The prompt /review sends: the instructions and the diff (capped), or why there is nothing to review. */
export function reviewPrompt(
  diff: string,
  range: string | undefined,
): { ok: true; text: string } | { ok: false; message: string } {
  const what = range ? `the range ${range}` : 'the working tree against HEAD';
  if (!diff.trim()) return { ok: false, message: `Nothing to review: no changes in ${what}.` };
  const shown = diff.length > REVIEW_DIFF_MAX ? diff.slice(0, REVIEW_DIFF_MAX) : diff;
  const cut =
    diff.length > REVIEW_DIFF_MAX
      ? `\n(The diff continues for ${diff.length - REVIEW_DIFF_MAX} more characters: read those files directly.)`
      : '';
  return { ok: true, text: `${reviewTemplate.trim()}\n\nThe change: ${what}.\n\n\`\`\`diff\n${shown}\n\`\`\`${cut}` };
}
