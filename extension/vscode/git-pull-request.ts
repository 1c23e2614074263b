// "Create Branch and Pull Request" for one session — the palette's (the sidebar chat's session), the
// Agents view row's, the chat's end-of-run button's: the session's work on a branch (a worktree session's
// own branch, pushed from its worktree), pushed after the user's approval (the permission policy judges
// `git push …` as any command: a deny rule refuses it, and the user is always asked, in a modal, with
// the commits that go), then the pull request through `gh` when it is installed and logged in, else its
// body on the clipboard and the compare page opened (the editor asks before opening it). Title and body
// come from that session: its title, last answer and review.
import * as vscode from 'vscode';
import type { PermissionGate } from '../core/agent/permission-gate';
import { boxedGitRunner, createBranchAndPullRequest, GitProblem, type TargetResult } from '../core/git';
import type { SandboxPort } from '../core/sandbox/types';
import { decide } from '../core/permissions';

export interface PullRequestHostDeps {
  /** The session acted on, and where (pullRequestTarget). */
  target: TargetResult;
  gate: PermissionGate;
  /** The box (and its proxy) the push runs in when the sandbox is on. */
  sandbox(): SandboxPort | undefined;
}

export async function createPullRequestCommand(deps: PullRequestHostDeps): Promise<void> {
  if (!deps.target.ok) {
    void vscode.window.showWarningMessage(`Sextant: ${deps.target.problem}`);
    return;
  }
  const { cwd, session, worktree } = deps.target.target;
  try {
    const done = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Sextant: branch and pull request…' },
      () =>
        createBranchAndPullRequest(
          cwd,
          session,
          {
            judge: async (command) => {
              const d = decide({ tool: 'bash', kind: 'execute', input: { command } }, deps.gate.policy());
              return { decision: d.decision, reason: d.reason };
            },
            approve: async (command, detail) =>
              (await vscode.window.showWarningMessage(
                `Sextant: run "${command}"?`,
                { modal: true, detail },
                'Push',
              )) === 'Push',
            // A worktree session's push runs in the box rooted at its worktree, as its own commands do.
            run: boxedGitRunner(deps.sandbox, worktree ? { workspaceFolders: [worktree.path] } : {}),
            copyToClipboard: (text) => Promise.resolve(vscode.env.clipboard.writeText(text)),
            openUrl: async (url) => void (await vscode.env.openExternal(vscode.Uri.parse(url))),
          },
          {},
          { worktree: Boolean(worktree) },
        ),
    );
    const pr = done.pullRequest;
    const made = done.created ? `Created branch ${done.branch}; ` : '';
    const upstream = done.upstreamProblem ? ` (${done.upstreamProblem})` : '';
    void vscode.window.showInformationMessage(
      pr.kind === 'gh'
        ? `Sextant: ${made}pushed it${upstream} and opened the pull request: ${pr.url}`
        : `Sextant: ${made}pushed ${done.branch}${upstream}. The pull request's title and body are on the ` +
            `clipboard (${pr.why})` +
            (pr.url ? `; paste them at ${pr.url}` : '; open a pull request on your forge and paste them.'),
    );
  } catch (err) {
    const text = err instanceof GitProblem ? err.message : `the pull request was not made: ${String(err)}`;
    void vscode.window.showWarningMessage(`Sextant: ${text}`);
  }
}
