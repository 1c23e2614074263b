// Hooks for an engine: the user's `sextant.hooks` and the workspace's settings files, the user's
// decision about the workspace's hooks (kept in the host's workspace state), the approval card's view
// posted to the chat, and the engine the chat fires events through. Hooks run through the sandbox port
// (in the box, like commands) with the same scrubbed environment. A workspace's hooks run only once
// approved (HookSettings): in VS Code on their card, on the command line with --trust-workspace.
import type { Outbound } from '../protocol';
import { WORKSPACE_HOOK_FILES } from '../core/extensions/hooks/config';
import { HookEngine } from '../core/extensions/hooks/hook-engine';
import { boxedHookRunner } from '../core/extensions/hooks/hook-process';
import { HookSettings } from '../core/extensions/hooks/hook-settings';
import { HookTrust } from '../core/extensions/hooks/hook-trust';
import type { Policy } from '../core/permissions';
import type { Logger, ToolPorts } from '../core/ports';
import type { AuditEntry } from '../core/security/audit-log';
import { defaultChildEnv } from '../core/security/child-env';
import { type LiveWorktree, rootedSandbox } from '../core/worktrees/session-ports';
import type { KeyValueState } from './state';

export interface EngineHooks {
  engine: HookEngine;
  settings: HookSettings;
  /** Posts the view (the approval card) to the chat. */
  post(): void;
  /** The setting changed. */
  reloadUser(): void;
  /** The workspace's hook files changed (or the folder did). */
  reloadWorkspace(): Promise<void>;
  decide(hash: string, decision: 'approve' | 'deny'): Promise<void>;
}

export interface HooksDeps {
  log: Logger;
  post(message: Outbound): void;
  /** The tools' ports: the box hooks run in and the scrubbed environment. */
  ports: () => Pick<ToolPorts, 'sandbox' | 'childEnv'>;
  audit(entry: AuditEntry): void;
  /** The permission policy in force: a hook's `if` is judged with it. */
  policy(): Policy;
  /** Where the user's decision about the workspace's hooks is kept. */
  workspaceState: KeyValueState;
  trusted(): boolean;
  /** The first workspace folder (absolute), if any. */
  folder(): string | undefined;
  /** A workspace file's text (path relative to the folder), undefined when missing. */
  readWorkspaceFile(file: string): Promise<string | undefined>;
  /** `sextant.hooks` (user scope). */
  userHooks(): unknown;
  /**
   * The git worktree a session works in, if any: its hooks start there (cwd, CLAUDE_PROJECT_DIR) and the box
   * gives them that worktree, not the main working tree, to write — as its tools get.
   */
  sessionWorktree?(sessionId: string): LiveWorktree | undefined;
}

export function createEngineHooks(o: HooksDeps): EngineHooks {
  const settings = new HookSettings(new HookTrust(o.workspaceState), o.trusted, o.folder);
  const worktreeOf = (sessionId: string | undefined) =>
    sessionId === undefined ? undefined : o.sessionWorktree?.(sessionId);
  const engine = new HookEngine({
    hooks: () => settings.inForce(),
    run: (r) => {
      const live = worktreeOf(r.sessionId);
      return boxedHookRunner(() => {
        const box = o.ports().sandbox;
        return box && live ? rootedSandbox(box, () => live) : box;
      })(r);
    },
    env: () => o.ports().childEnv?.() ?? defaultChildEnv(),
    cwd: (sessionId) => worktreeOf(sessionId)?.worktree.path ?? o.folder(),
    audit: o.audit,
    log: o.log,
    policy: o.policy,
  });
  const post = () => o.post({ type: 'hooks', view: settings.view() });
  let reported = '';
  settings.onDidChange(() => {
    const problems = settings.problems().join('\n');
    if (problems && problems !== reported) o.log.warn(`hooks: ${problems}`);
    reported = problems;
    post();
  });
  const reloadUser = () => settings.setUser(o.userHooks());
  const reloadWorkspace = async () => {
    if (!o.folder()) return settings.setWorkspaceFiles([]);
    const files: Array<{ file: string; text: string }> = [];
    for (const file of WORKSPACE_HOOK_FILES) {
      const text = await o.readWorkspaceFile(file);
      if (text !== undefined) files.push({ file, text });
    }
    settings.setWorkspaceFiles(files);
  };
  reloadUser();
  return {
    engine,
    settings,
    post,
    reloadUser,
    reloadWorkspace,
    decide: async (hash, decision) => {
      if (!(await settings.decide(hash, decision === 'approve'))) post();
    },
  };
}
