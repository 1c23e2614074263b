// Workspace hooks run only after the user approved them: a cloned repository's `.claude/settings.json`
// must not run commands on the user's machine unasked. The approval is bound to the hash of every
// workspace hook (workspaceHooksHash), kept in VS Code's workspace state; any change asks again. In a
// workspace VS Code does not trust, none runs and none is offered. User hooks (sextant.hooks) need no
// approval: the user wrote them.
import type { KeyValueStore } from '../../mcp/trust-store';
import { type HookCommand, workspaceHooksHash } from './config';

const KEY = 'sextant.hooks.decision';

interface Decision {
  hash: string;
  approved: boolean;
}

export class HookTrust {
  constructor(private readonly store: KeyValueStore) {}

  private current(): Decision | undefined {
    const v = this.store.get(KEY) as Partial<Decision> | undefined;
    return v && typeof v.hash === 'string' && typeof v.approved === 'boolean'
      ? { hash: v.hash, approved: v.approved }
      : undefined;
  }

  /** The decision about exactly this configuration, if any. */
  decision(hash: string): 'approved' | 'denied' | undefined {
    const d = this.current();
    if (!d || d.hash !== hash) return undefined;
    return d.approved ? 'approved' : 'denied';
  }

  /** An approval for another configuration exists: the hooks changed since the user approved them. */
  changedSinceApproval(hash: string): boolean {
    const d = this.current();
    return Boolean(d && d.hash !== hash && d.approved);
  }

  async decide(hash: string, approved: boolean): Promise<void> {
    await this.store.update(KEY, { hash, approved });
  }
}

export interface WorkspaceHooksStatus {
  hash: string;
  hooks: HookCommand[];
  state: 'approved' | 'denied' | 'pending' | 'untrusted';
  /** Pending because the approved configuration changed. */
  changed: boolean;
}

/** The workspace's hooks and whether they may run. */
export function workspaceHooksStatus(
  hooks: HookCommand[],
  trusted: boolean,
  trust: HookTrust,
  scripts?: (hook: HookCommand) => string,
): WorkspaceHooksStatus | undefined {
  if (!hooks.length) return undefined;
  const hash = workspaceHooksHash(hooks, scripts);
  const decided = trust.decision(hash);
  const changed = !decided && trust.changedSinceApproval(hash);
  const state = !trusted ? 'untrusted' : (decided ?? 'pending');
  return { hash, hooks, state, changed };
}

/** The hooks that run: the user's always, the workspace's only when approved in a trusted workspace. */
export function hooksInForce(user: HookCommand[], workspace: WorkspaceHooksStatus | undefined): HookCommand[] {
  return workspace?.state === 'approved' ? [...user, ...workspace.hooks] : [...user];
}
