// `/commit [what to say about it]`: an Agent request whose prompt holds what the model needs to propose
// the commit on one card (the git_commit tool): the state (branch, staged, changed and new files), the
// recent subjects (the style) and the diff. Bad input (not a repository, detached HEAD, a merge in
// progress, no identity, nothing to commit) is refused here, before any model call, with what to do.
import commitTemplate from '../../../prompts/commit.md';
import type { MayRead } from '../extensions/untracked-files';
import { commitMessageContext } from './commit-message';
import { commitProblem, GitProblem, readRepoState } from './repo-state';

export type CommitCommand = (args: string) => Promise<{ ok: true; text: string } | { ok: false; message: string }>;

export function gitCommitCommand(root: () => string | undefined, mayRead?: MayRead): CommitCommand {
  return async (args) => {
    const cwd = root();
    if (!cwd) return { ok: false, message: '/commit needs an open folder (a git repository).' };
    try {
      const s = await readRepoState(cwd);
      const problem = commitProblem(s, { needChanges: true });
      if (problem) return { ok: false, message: problem.message };
      const c = await commitMessageContext(cwd, mayRead ? { mayRead } : {});
      const list = (label: string, files: string[]) => (files.length ? `${label}: ${files.join(', ')}` : '');
      const state = [
        `Branch: ${s.branch}`,
        list('Staged', s.staged),
        list('Changed, not staged', s.unstaged),
        list('New (untracked)', s.untracked),
      ].filter(Boolean);
      const style = c.log.length ? `Recent subjects (newest first):\n${c.log.map((l) => `- ${l}`).join('\n')}` : '';
      const note = args ? `\n\nThe user says: ${args}` : '';
      const diff = c.diff.length > 60_000 ? `${c.diff.slice(0, 60_000)}\n[diff cut here]` : c.diff;
      return {
        ok: true,
        text:
          `${commitTemplate.trim()}${note}\n\n${state.join('\n')}\n\n${style}\n\n` +
          `The ${c.staged ? 'staged changes' : 'changes'}:\n\n\`\`\`diff\n${diff}\n\`\`\``,
      };
    } catch (err) {
      return { ok: false, message: err instanceof GitProblem ? err.message : `/commit: ${(err as Error).message}` };
    }
  };
}
