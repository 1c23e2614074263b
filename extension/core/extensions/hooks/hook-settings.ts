// The hooks of this window: the user's (`sextant.hooks`) and the workspace's (its settings files),
// the user's decision about the workspace's, and the view the approval card is drawn from. The host
// feeds it the setting's value and the files' text whenever they change; the engine asks `inForce()`
// at every event, so an approval, a denial or an edit counts from the next event on.
import type { HooksView } from '../../../protocol';
import { type HookCommand, type HookSource, hooksFromValue, parseHooksFile } from './config';
import { workspaceScriptsDigest } from './hook-scripts';
import { type HookTrust, hooksInForce, workspaceHooksStatus } from './hook-trust';

export const USER_HOOKS_SOURCE = 'user settings (sextant.hooks)';

export class HookSettings {
  private user: HookSource = { hooks: [], problems: [] };
  private workspace: HookSource[] = [];
  /** The enabled plugins' hooks: approved with the workspace's, on the same card, bound to the same hash. */
  private plugins: HookSource = { hooks: [], problems: [] };
  private lastHash: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly trust: HookTrust,
    private readonly trusted: () => boolean,
    /** The workspace folder: the scripts a workspace hook runs there are bound to its approval. */
    private readonly root: () => string | undefined = () => undefined,
  ) {}

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }

  /** The value of `sextant.hooks` (user scope only). */
  setUser(value: unknown): void {
    this.user = hooksFromValue(value, USER_HOOKS_SOURCE, 'user');
    this.changed();
  }

  /** The workspace's settings files that exist, each with its text. */
  setWorkspaceFiles(files: ReadonlyArray<{ file: string; text: string }>): void {
    this.workspace = files.map((f) => parseHooksFile(f.text, f.file));
    this.changed();
  }

  /** The hooks of the enabled plugins (plugins/plugin-parts.ts), `${CLAUDE_PLUGIN_ROOT}` expanded. */
  setPlugins(source: HookSource): void {
    this.plugins = source;
    this.changed();
  }

  private workspaceHooks(): HookCommand[] {
    return [...this.workspace.flatMap((s) => s.hooks), ...this.plugins.hooks];
  }

  private status() {
    // Read at every event: a script edited after the approval gives another hash, so it asks again.
    const root = this.root();
    return workspaceHooksStatus(this.workspaceHooks(), this.trusted(), this.trust, (h) =>
      workspaceScriptsDigest(h.command, root),
    );
  }

  /** The hooks that run now. */
  inForce(): HookCommand[] {
    const status = this.status();
    // A script edited since the last look changed the hash: the card must show the question again.
    if (status?.hash !== this.lastHash) {
      this.lastHash = status?.hash;
      queueMicrotask(() => this.changed());
    }
    return hooksInForce(this.user.hooks, status);
  }

  problems(): string[] {
    return [...this.user.problems, ...this.workspace.flatMap((s) => s.problems), ...this.plugins.problems];
  }

  view(): HooksView {
    const status = this.status();
    return {
      problems: this.problems(),
      ...(status
        ? {
            workspace: {
              hash: status.hash,
              state: status.state,
              changed: status.changed,
              hooks: status.hooks.map((h) => ({
                event: h.event,
                matcher: h.matcher,
                ...(h.if !== undefined ? { if: h.if } : {}),
                command: h.command,
                timeoutS: h.timeoutS,
                source: h.source,
              })),
            },
          }
        : {}),
    };
  }

  /**
   * The user's answer on the card, bound to the hash the card showed: an answer about a configuration
   * that has changed since is ignored (the card shows the new one and asks again).
   */
  async decide(hash: string, approve: boolean): Promise<boolean> {
    const status = this.status();
    if (!status || status.hash !== hash || status.state === 'untrusted') return false;
    await this.trust.decide(hash, approve);
    this.changed();
    return true;
  }
}
