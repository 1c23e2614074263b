// Which sessions work in a worktree: session id → its worktree, kept in the workspace's state so a
// reloaded window still roots a resumed session in its worktree and still offers its Merge Back. The
// session host adds a record when it makes a worktree and drops it once the worktree is merged back,
// kept as a branch or discarded. `ready` (the files written) lives only in memory: after a reload a
// record's files were written long ago (a fill a reload cut short left a worktree whose missing files
// the session's tools report as missing, and its Merge Back shows them as deleted — nothing is lost).
import type { LiveWorktree } from './session-ports';
import type { SessionWorktree } from './types';

/** Where the records are kept (the workspace's Memento in VS Code; memory in tests). */
export interface RegistryStore {
  read(): unknown;
  write(records: WorktreeRecord[]): void;
}

export interface WorktreeRecord {
  sessionId: string;
  worktree: SessionWorktree;
  createdAt: number;
}

const FIELDS = ['path', 'branch', 'base', 'mainPath', 'commonDir', 'gitDir'] as const;

export class WorktreeSessions {
  private readonly records = new Map<string, WorktreeRecord>();
  private readonly ready = new Map<string, Promise<void>>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly store: RegistryStore) {
    const stored = store.read();
    if (Array.isArray(stored)) for (const r of stored) if (isRecord(r)) this.records.set(r.sessionId, r);
  }

  add(sessionId: string, worktree: SessionWorktree, ready: Promise<void>, now = Date.now()): void {
    this.records.set(sessionId, { sessionId, worktree, createdAt: now });
    this.ready.set(sessionId, ready);
    this.save();
  }

  /** The session's worktree, if it works in one. */
  get(sessionId: string | undefined): LiveWorktree | undefined {
    const r = sessionId === undefined ? undefined : this.records.get(sessionId);
    if (!r) return undefined;
    return { worktree: r.worktree, ready: this.ready.get(r.sessionId) ?? Promise.resolve() };
  }

  record(sessionId: string): WorktreeRecord | undefined {
    return this.records.get(sessionId);
  }

  /** The session no longer works in a worktree (merged back, kept as a branch, discarded). */
  delete(sessionId: string): void {
    if (!this.records.delete(sessionId)) return;
    this.ready.delete(sessionId);
    this.save();
  }

  all(): WorktreeRecord[] {
    return [...this.records.values()];
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private save(): void {
    this.store.write(this.all());
    for (const l of this.listeners) l();
  }
}

/** A stored record as written by `add` (anything else — an older shape, a hand edit — is dropped). */
function isRecord(r: unknown): r is WorktreeRecord {
  if (!r || typeof r !== 'object') return false;
  const { sessionId, worktree, createdAt } = r as Partial<WorktreeRecord>;
  if (typeof sessionId !== 'string' || !sessionId || typeof createdAt !== 'number') return false;
  if (!worktree || typeof worktree !== 'object') return false;
  return FIELDS.every((f) => typeof worktree[f] === 'string' && worktree[f] !== '');
}
