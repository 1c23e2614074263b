// "Write Commit Message" on the Source Control view's title (for git repositories) and in the palette:
// a message for the staged changes (or all changes) in the repository's style, streamed into the
// Source Control input box through the built-in git extension's API. Cancel on the progress
// notification stops it (the request is aborted; what had arrived stays in the box). The model is
// sextant.git.commitMessageModel, else the chat's; the window's budget caps are checked first and the
// call's spending counted in them.
import * as vscode from 'vscode';
import { commitMessageContext, GitProblem, writeCommitMessage, type CommitMessageDeps } from '../core/git';
import type { MayRead } from '../core/extensions/untracked-files';

/** The part of the built-in git extension's API (`vscode.git`, getAPI(1)) used here. */
interface GitApiRepository {
  rootUri: vscode.Uri;
  inputBox: { value: string };
}
interface GitApi {
  repositories: GitApiRepository[];
}

export const COMMIT_MESSAGE_MODEL_SETTING = 'commitMessageModel';

async function gitApi(): Promise<GitApi | undefined> {
  const ext = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!ext) return undefined;
  const exports = ext.isActive ? ext.exports : await ext.activate();
  return exports.getAPI(1);
}

/** The repository the button was for (its SourceControl's `rootUri`), else the active file's, else the first. */
function pickRepository(api: GitApi, arg: unknown): GitApiRepository | undefined {
  const root = (arg as { rootUri?: vscode.Uri } | undefined)?.rootUri;
  const byRoot = root && api.repositories.find((r) => r.rootUri.toString() === root.toString());
  if (byRoot) return byRoot;
  const active = vscode.window.activeTextEditor?.document.uri.fsPath;
  const holding = active && api.repositories.find((r) => active.startsWith(r.rootUri.fsPath));
  return holding || api.repositories[0];
}

export interface CommitMessageHostDeps {
  message: Omit<CommitMessageDeps, 'modelRef'>;
  chatModel(): string;
  mayRead?: MayRead;
}

export async function generateCommitMessage(deps: CommitMessageHostDeps, arg?: unknown): Promise<void> {
  const api = await gitApi();
  const repo = api && pickRepository(api, arg);
  if (!repo) {
    void vscode.window.showWarningMessage(
      'Sextant: no git repository is open in Source Control (the built-in Git extension must be enabled).',
    );
    return;
  }
  const configured = vscode.workspace.getConfiguration('sextant.git').get<string>(COMMIT_MESSAGE_MODEL_SETTING, '');
  const modelRef = () => configured.trim() || deps.chatModel();
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: 'Sextant: writing the commit message…',
      cancellable: true,
    },
    async (_progress, token) => {
      const stop = new AbortController();
      const sub = token.onCancellationRequested(() => stop.abort());
      const before = repo.inputBox.value;
      try {
        const context = await commitMessageContext(repo.rootUri.fsPath, deps.mayRead ? { mayRead: deps.mayRead } : {});
        const written = await writeCommitMessage(
          { ...deps.message, modelRef },
          context,
          (soFar) => {
            if (!stop.signal.aborted) repo.inputBox.value = soFar;
          },
          stop.signal,
        );
        if (!stop.signal.aborted) repo.inputBox.value = written.message || before;
      } catch (err) {
        if (stop.signal.aborted) return;
        repo.inputBox.value = repo.inputBox.value || before;
        const text = err instanceof GitProblem ? err.message : `could not write the commit message: ${String(err)}`;
        void vscode.window.showWarningMessage(`Sextant: ${text}`);
      } finally {
        sub.dispose();
      }
    },
  );
}
