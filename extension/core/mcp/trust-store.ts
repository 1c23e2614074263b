// What the user decided about each server, kept by the host (VS Code's workspace state for the
// workspace's servers, global state for the user's): the configuration hash an approval is bound to,
// the tool list (name → hash) the user has seen, a denial, and whether the server is disabled.
// Keyed by scope and name; a record whose configuration hash differs from the server's is void.

export interface ServerDecision {
  /** The configuration hash this record is about. */
  configHash: string;
  /** Approved to start (workspace servers); user servers need no approval to start. */
  approved?: boolean;
  denied?: boolean;
  /** The tool list the user has seen (first connect) or approved (a change): tool name → hash. */
  tools?: Record<string, string>;
  disabled?: boolean;
}

/** A small key-value store (VS Code's Memento fits). */
export interface KeyValueStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

const KEY = 'sextant.mcp.decisions';

export class McpTrustStore {
  constructor(private readonly store: KeyValueStore) {}

  private all(): Record<string, ServerDecision> {
    const v = this.store.get(KEY);
    return v && typeof v === 'object' ? { ...(v as Record<string, ServerDecision>) } : {};
  }

  /** The record for a server, only if it is about this exact configuration. */
  get(name: string, configHash: string): ServerDecision | undefined {
    const r = this.all()[name];
    return r && r.configHash === configHash ? r : undefined;
  }

  /** Whether an older decision exists for another configuration of this name (a changed config). */
  hadOther(name: string, configHash: string): boolean {
    const r = this.all()[name];
    return r !== undefined && r.configHash !== configHash && r.approved === true;
  }

  async set(name: string, decision: ServerDecision): Promise<void> {
    const all = this.all();
    all[name] = decision;
    await this.store.update(KEY, all);
  }

  async patch(name: string, configHash: string, change: Partial<ServerDecision>): Promise<void> {
    const current = this.get(name, configHash) ?? { configHash };
    await this.set(name, { ...current, ...change, configHash });
  }

  async forget(name: string): Promise<void> {
    const all = this.all();
    delete all[name];
    await this.store.update(KEY, all);
  }
}
