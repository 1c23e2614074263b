// Loads `.sextant/settings.json` from the first workspace folder (parsed by
// core/config/workspace-settings.ts: it may only add ask/deny permission rules and a stricter
// default mode), keeps it current through a file watcher, and reports its problems in the output
// channel and once per change as a warning notification.
import * as vscode from 'vscode';
import {
  parseWorkspaceSettings,
  WORKSPACE_SETTINGS_PATH,
  type WorkspaceSettings,
} from '../core/config/workspace-settings';
import type { Logger } from '../core/ports';
import { errorText } from '../core/util/error-text';

const MAX_BYTES = 1_000_000;

export class WorkspaceSettingsFile implements vscode.Disposable {
  private state: WorkspaceSettings = { problems: [] };
  private readonly emitter = new vscode.EventEmitter<WorkspaceSettings>();
  /** Fires after every reload whose result differs from the previous one. */
  readonly onDidChange = this.emitter.event;
  private watcher: vscode.Disposable | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private generation = 0;
  private reported = '';
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly log: Logger,
    private readonly notify: (message: string) => void = (m) => void vscode.window.showWarningMessage(m),
  ) {
    this.subscriptions.push(
      this.emitter,
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watch();
        this.schedule();
      }),
    );
    this.watch();
  }

  /** The settings as last read (no permissions and no problems before the first load). */
  current(): WorkspaceSettings {
    return this.state;
  }

  /** The file's URI in the first workspace folder, if a folder is open. */
  uri(): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder ? vscode.Uri.joinPath(folder.uri, ...WORKSPACE_SETTINGS_PATH.split('/')) : undefined;
  }

  /** Reads the file now; resolves with what `current()` returns afterwards. */
  async reload(): Promise<WorkspaceSettings> {
    const generation = ++this.generation;
    const next = await this.read();
    if (generation !== this.generation) return this.state; // a newer reload is under way
    const changed = JSON.stringify(next) !== JSON.stringify(this.state);
    this.state = next;
    this.report(next);
    if (changed) this.emitter.fire(next);
    return next;
  }

  private async read(): Promise<WorkspaceSettings> {
    const uri = this.uri();
    if (!uri) return { problems: [] };
    let bytes: Uint8Array;
    try {
      bytes = await vscode.workspace.fs.readFile(uri);
    } catch (err) {
      if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return { problems: [] };
      const why = errorText(err);
      return { problems: [`${WORKSPACE_SETTINGS_PATH} could not be read (${why}); it was ignored.`] };
    }
    if (bytes.byteLength > MAX_BYTES)
      return { problems: [`${WORKSPACE_SETTINGS_PATH} is larger than 1 MB; it was ignored.`] };
    return parseWorkspaceSettings(Buffer.from(bytes).toString('utf8'));
  }

  private report(s: WorkspaceSettings): void {
    const text = s.problems.join('\n');
    if (text === this.reported) return;
    this.reported = text;
    if (!text) return;
    for (const p of s.problems) this.log.warn(`workspace settings: ${p}`);
    const more = s.problems.length > 1 ? ` (and ${s.problems.length - 1} more in the Sextant output)` : '';
    this.notify(`Sextant: ${s.problems[0]}${more}`);
  }

  private schedule(): void {
    // Editors save in bursts (write, rename, change); read once they are done.
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.reload();
    }, 100);
  }

  private watch(): void {
    this.watcher?.dispose();
    this.watcher = undefined;
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return;
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, WORKSPACE_SETTINGS_PATH));
    const on = () => this.schedule();
    this.watcher = vscode.Disposable.from(w, w.onDidCreate(on), w.onDidChange(on), w.onDidDelete(on));
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.dispose();
    for (const d of this.subscriptions) d.dispose();
  }
}
