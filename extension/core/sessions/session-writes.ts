// Which files each running session of this window has changed — its writes, edits and applied diffs (the
// hook every writer calls before it changes a file) — so that one session does not silently overwrite what
// another is still working on. When a session without a worktree of its own would write a file another
// session changed and is still running, the permission decision becomes "ask", even where a rule or the
// mode would allow the write, and the card names the other session. A deny stays a deny. What a session
// changed is forgotten when its request ends: the guard is about work still in progress. A session in its
// own worktree writes its own copies of the files (other paths): it never meets the others' changes.
import type { Decision } from '../permissions/types';

export interface WritingSession {
  id: string;
  title: string;
}

interface Change {
  title: string;
  at: number;
}

/** The guard one session's turn consults (permission path) and feeds (before each write). */
export interface SessionWriteGuard {
  /** The session is about to change this file (its real path). */
  changed(realPath: string): void;
  /** The decision on a write of these files (real paths): an "ask" naming the other session where one changed one. */
  judge<D extends Decision>(judged: D, realPaths: ReadonlyArray<string | undefined>): D;
  /** The session's request ended: its changes no longer hold the others back. */
  ended(): void;
}

export class SessionWrites {
  /** Real path → the running sessions that changed it, with when they last did. */
  private readonly byPath = new Map<string, Map<string, Change>>();

  constructor(private readonly now: () => number) {}

  changed(session: WritingSession, realPath: string): void {
    const sessions = this.byPath.get(realPath) ?? new Map<string, Change>();
    this.byPath.set(realPath, sessions);
    sessions.set(session.id, { title: session.title, at: this.now() });
  }

  ended(sessionId: string): void {
    for (const [path, sessions] of this.byPath) {
      sessions.delete(sessionId);
      if (!sessions.size) this.byPath.delete(path);
    }
  }

  /** The latest change of this file by a running session other than `sessionId`. */
  otherChange(sessionId: string, realPath: string): Change | undefined {
    let latest: Change | undefined;
    for (const [id, change] of this.byPath.get(realPath) ?? [])
      if (id !== sessionId && (!latest || change.at > latest.at)) latest = change;
    return latest;
  }

  /**
   * The guard of one session. `ownWorktree`: it works in a worktree of its own (its writes never touch the
   * files the others change, so it is never asked on their account).
   */
  guardFor(session: () => WritingSession, ownWorktree: () => boolean): SessionWriteGuard {
    return {
      changed: (realPath) => this.changed(session(), realPath),
      ended: () => this.ended(session().id),
      judge: (judged, realPaths) => {
        if (judged.decision === 'deny' || ownWorktree()) return judged;
        const id = session().id;
        for (const path of realPaths) {
          const other = path === undefined ? undefined : this.otherChange(id, path);
          if (!other) continue;
          const reason = crossSessionReason(other.title, this.now() - other.at);
          // Already asking: the card says why it matters more than the rule that asked.
          return { ...judged, decision: 'ask', reason };
        }
        return judged;
      },
    };
  }
}

/** "“Fix the parser” changed this file 3 min ago and is still running". */
export function crossSessionReason(title: string, agoMs: number): string {
  const minutes = Math.floor(Math.max(0, agoMs) / 60_000);
  const ago = minutes < 1 ? 'less than a minute ago' : `${minutes} min ago`;
  return `“${title || 'Another chat'}” changed this file ${ago} and is still running`;
}
