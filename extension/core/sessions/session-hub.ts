// The live sessions of one window, and which view shows which. A session's life — its request, approvals,
// budget, Stop — belongs to its slot here, not to a view: views (the sidebar, editor tabs) attach to a
// slot and detach from it without stopping anything, and a slot nobody looks at keeps running. The hub
// knows nothing of VS Code: a host gives it a factory for a slot's controller and handler table.
import type { Outbound, PendingApproval, PendingQuestion } from '../../protocol';
import { type SessionStatus, SessionStatusFold } from './session-status';

/** What the hub needs of a chat controller (core/agent/controller.ts). */
export interface SlotController {
  readonly sessionId: string;
  isRunning(): boolean;
  stop(requestId?: string): Promise<void>;
  postSnapshot(): Promise<void>;
  resume(sessionId: string): Promise<boolean>;
  currentSessionRef(): { id: string; title: string } | undefined;
}

/** A slot's working parts, built by the host once per slot. */
export interface SlotParts<C extends SlotController = SlotController> {
  controller: C;
  /** One message from a view of this slot (already known to be for it). */
  handle(raw: unknown): Promise<void>;
  dispose(): Promise<void>;
}

/** A view a slot posts to. */
export interface SessionViewer {
  post(message: Outbound): void;
  /** Whether the user can see the view now (a collapsed sidebar or a background tab cannot). */
  visible(): boolean;
}

/** What waits for the user in a slot no visible view shows. */
export type UnseenWait = { approval: PendingApproval } | { question: PendingQuestion };

export interface SessionHubOptions<C extends SlotController> {
  /** Builds a slot's parts; `from` is the slot a view left for this one (a new chat takes its mode and model). */
  create(post: (message: Outbound) => void, slot: SessionSlot<C>, from?: SessionSlot<C>): SlotParts<C>;
  newId(): string;
  now(): number;
  /** An approval or a question arrived where nobody sees it: the host notifies (and badges). */
  onUnseenWait?(slot: SessionSlot<C>, wait: UnseenWait): void;
}

export interface SlotOptions {
  /** The folder the session works in when not the workspace (its worktree). */
  folder?: string;
  /** Where the slot was opened: for the Agents view's icon and for what a closed view does. */
  place?: 'sidebar' | 'editor' | 'background';
}

export class SessionSlot<C extends SlotController = SlotController> {
  private readonly viewers = new Set<SessionViewer>();
  private readonly fold = new SessionStatusFold();
  private partsOf: SlotParts<C> | undefined;
  disposed = false;

  constructor(
    readonly id: string,
    readonly openedAt: number,
    readonly options: SlotOptions,
    private readonly changed: (slot: SessionSlot<C>) => void,
    private readonly unseen: (slot: SessionSlot<C>, wait: UnseenWait) => void,
  ) {}

  /** @internal set once by the hub right after construction. */
  bind(parts: SlotParts<C>): void {
    this.partsOf = parts;
  }

  get parts(): SlotParts<C> {
    if (!this.partsOf) throw new Error('session slot used before its parts were built');
    return this.partsOf;
  }

  get controller(): C {
    return this.parts.controller;
  }

  get status(): SessionStatus {
    return this.fold.current;
  }

  get folder(): string | undefined {
    return this.options.folder;
  }

  /** Whether some view shows this slot; and whether one of them is in front of the user. */
  get attached(): boolean {
    return this.viewers.size > 0;
  }

  get seen(): boolean {
    for (const v of this.viewers) if (v.visible()) return true;
    return false;
  }

  /** Everything the slot's controller posts passes here: the status first, then every attached view. */
  post = (message: Outbound): void => {
    if (this.disposed) return;
    const before = this.fold.current;
    const changed = this.fold.apply(message);
    for (const v of this.viewers) v.post(message);
    if (changed) {
      this.changed(this);
      if (!this.seen) for (const wait of newWaits(before, this.fold.current)) this.unseen(this, wait);
    }
  };

  attach(viewer: SessionViewer): () => void {
    this.viewers.add(viewer);
    return () => void this.viewers.delete(viewer);
  }
}

function newWaits(before: SessionStatus, after: SessionStatus): UnseenWait[] {
  const known = new Set([...before.approvals.map((a) => a.callId), ...before.questions.map((q) => q.callId)]);
  return [
    ...after.approvals.filter((a) => !known.has(a.callId)).map((approval) => ({ approval })),
    ...after.questions.filter((q) => !known.has(q.callId)).map((question) => ({ question })),
  ];
}

export class SessionHub<C extends SlotController = SlotController> {
  private readonly live = new Map<string, SessionSlot<C>>();
  private readonly listeners = new Set<() => void>();
  /** Sessions whose slot was closed after they finished: still listed (done, failed) until cleared. */
  private readonly ended = new Map<string, SessionStatus & { folder?: string }>();

  constructor(private readonly opts: SessionHubOptions<C>) {}

  open(options: SlotOptions = {}, from?: SessionSlot<C>): SessionSlot<C> {
    const slot = new SessionSlot<C>(
      this.opts.newId(),
      this.opts.now(),
      options,
      () => this.fire(),
      (s, wait) => this.opts.onUnseenWait?.(s, wait),
    );
    slot.bind(this.opts.create(slot.post, slot, from));
    this.live.set(slot.id, slot);
    this.fire();
    return slot;
  }

  slots(): SessionSlot<C>[] {
    return [...this.live.values()];
  }

  get(slotId: string): SessionSlot<C> | undefined {
    return this.live.get(slotId);
  }

  /** The live slot showing a session, if one does. */
  bySession(sessionId: string): SessionSlot<C> | undefined {
    for (const s of this.live.values()) if (s.controller.sessionId === sessionId) return s;
    return undefined;
  }

  /** Closed sessions still listed (finished, failed or stopped while nobody watched). */
  endedSessions(): (SessionStatus & { folder?: string })[] {
    return [...this.ended.values()];
  }

  forgetEnded(sessionId?: string): void {
    if (sessionId === undefined) this.ended.clear();
    else this.ended.delete(sessionId);
    this.fire();
  }

  /** The slot a session should be shown in: its live one, or a new slot that resumes it from history. */
  async reopen(sessionId: string, options: SlotOptions = {}): Promise<SessionSlot<C> | undefined> {
    const live = this.bySession(sessionId);
    if (live) return live;
    const ended = this.ended.get(sessionId);
    const slot = this.open({ ...(ended?.folder ? { folder: ended.folder } : {}), ...options });
    if (await slot.controller.resume(sessionId)) {
      this.ended.delete(sessionId);
      this.fire();
      return slot;
    }
    await this.close(slot);
    return undefined;
  }

  /**
   * A view let go of a slot. Nothing stops: a running slot goes on in the background; an idle one with
   * no view left is disposed (a session that had a turn stays listed as ended; history keeps it whole).
   */
  async release(slot: SessionSlot<C>): Promise<void> {
    if (slot.disposed || slot.attached || slot.controller.isRunning()) return;
    await this.close(slot);
  }

  /** Disposes a slot whatever it does (its request is stopped); it stays listed if it had a turn. */
  async close(slot: SessionSlot<C>): Promise<void> {
    if (slot.disposed) return;
    slot.disposed = true;
    this.live.delete(slot.id);
    const status = slot.status;
    if (slot.controller.currentSessionRef() && status.state !== 'idle')
      this.ended.set(status.sessionId, {
        ...status,
        state: status.state === 'running' || status.state === 'waiting' ? 'stopped' : status.state,
        approvals: [],
        questions: [],
        ...(slot.folder ? { folder: slot.folder } : {}),
      });
    try {
      await slot.parts.dispose();
    } finally {
      this.fire();
    }
  }

  /** The slots nobody watches that have finished: closed, so a long day does not keep every chat in memory. */
  async sweep(): Promise<void> {
    for (const s of this.slots()) if (!s.attached && !s.controller.isRunning()) await this.close(s);
  }

  /** A message that is no one chat's (an MCP server's or the hooks' approval card): to every view. */
  broadcast(message: Outbound): void {
    for (const s of this.live.values()) s.post(message);
  }

  /** Every chat posts a fresh snapshot (the models, keys or box changed under all of them). */
  postSnapshots(): void {
    for (const s of this.live.values()) void s.controller.postSnapshot();
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async dispose(): Promise<void> {
    for (const s of this.slots()) {
      s.disposed = true;
      await s.parts.dispose();
    }
    this.live.clear();
    this.listeners.clear();
  }

  private fire(): void {
    for (const l of this.listeners) l();
  }
}
