// git_commit: the model proposes what to commit (the files and the message); the card shows exactly
// that — the files, from where they are taken, the message, the hooks that run and the diff — and only
// the user's approval commits it (core/git/commit.ts: a temporary index, the repository's hooks, never
// --no-verify; --amend only when the call says so, which the card spells out). Agent mode only.
import * as z from 'zod';
import {
  cardDiff,
  commitCardText,
  commitFiles,
  commitHooks,
  commitProblem,
  commitSource,
  GitProblem,
  readRepoState,
} from '../git';
import { defineTool, errorResult, type ToolContext } from './types';

const input = z.object({
  files: z
    .array(z.string().min(1))
    .min(1)
    .describe('The paths to commit, relative to the repository root: exactly the files this commit takes.'),
  message: z.string().min(1).describe("The commit message in the repository's style: a subject line, then a body."),
  amend: z
    .boolean()
    .optional()
    .describe('Replace the last commit. Only when the user asked for an amend in so many words.'),
});
type Input = z.infer<typeof input>;

function root(ctx: ToolContext): string {
  const r = ctx.ports.workspace.roots()[0];
  if (!r) throw new GitProblem('not_a_repository', 'No workspace folder is open, so there is no repository.');
  return r;
}

export const gitCommitTool = defineTool({
  name: 'git_commit',
  description:
    'Commit changes with git after the user approves. Give exactly the files to commit and the message; the user ' +
    'sees both and the diff on a card. Files already staged are committed as staged; others as in the working ' +
    'tree. Never use it to amend unless the user asked. Git hooks run; a hook that fails leaves nothing committed.',
  input,
  kind: 'execute',
  permission: {
    subject: 'command',
    text: (i: Input) => `git commit${i.amend ? ' --amend' : ''} -- ${i.files.join(' ')}`,
  },
  modes: ['agent'],
  subject: (i: Input) => `${i.amend ? 'amend' : 'commit'} ${i.files.length} file(s): ${i.message.split('\n')[0]}`,
  async describeForApproval(i: Input, ctx) {
    try {
      const s = await readRepoState(root(ctx));
      const problem = commitProblem(s, { needChanges: true });
      if (problem) return `This commit cannot be made: ${problem.message}`;
      const from = commitSource(s, i.files);
      return commitCardText(i, from, s, await commitHooks(s.top), await cardDiff(s, i.files));
    } catch (err) {
      return `This commit cannot be made: ${(err as Error).message}`;
    }
  },
  async execute(i: Input, ctx) {
    try {
      const s = await readRepoState(root(ctx));
      const done = await commitFiles(s.top, {
        files: i.files,
        message: i.message,
        from: commitSource(s, i.files),
        ...(i.amend ? { amend: true } : {}),
      });
      const text = `Committed ${done.sha.slice(0, 10)} on ${done.branch}: ${done.subject} (${done.files.join(', ')}).`;
      return { forModel: text, forUi: text, isError: false };
    } catch (err) {
      const message = err instanceof GitProblem ? err.message : `git_commit failed: ${(err as Error).message}`;
      return errorResult(message, message.split('\n')[0]);
    }
  },
});
