// A session another VS Code window is running right now is not run a second time here. The store knows it
// (a `run_state` record of a live writer that is not this window's): two windows appending turns to one
// conversation at once would interleave them and repeat its tool calls. A send is refused with why — the
// text goes back to the composer — and the host offers the session read-only (its latest saved state) or a
// new chat.
import type { SessionPersistence } from '../ports';

/** Why a send in this session is refused while another window runs it. */
export function runningElsewhereMessage(title: string): string {
  return (
    `“${title || 'This chat'}” is running in another VS Code window right now, so it is not run here a second ` +
    'time. Open it read-only to follow its progress, or start a new chat.'
  );
}

export interface RunningElsewhereCheck {
  persistence: Pick<SessionPersistence, 'runningElsewhere'>;
  session: { id: string; title: string; persisted: boolean };
  /** Told when a send is refused (VS Code: a notification offering "Open Read-Only" and "New Chat"). */
  onRefused?(sessionId: string, message: string): void;
}

/** Why the session cannot run here now (and the host told), or undefined when it can. */
export function refusedAsRunningElsewhere(c: RunningElsewhereCheck): string | undefined {
  // A chat that was never saved cannot be running anywhere else.
  if (!c.session.persisted || !c.persistence.runningElsewhere?.(c.session.id)) return undefined;
  const message = runningElsewhereMessage(c.session.title);
  c.onRefused?.(c.session.id, message);
  return message;
}
