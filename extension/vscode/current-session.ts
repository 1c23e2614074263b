// Remembers which chat a workspace had open, so a reloaded window reopens it. A small file in the
// workspace's own storage folder, written synchronously: the Memento API (workspaceState) flushes
// later, and a reload that follows right away can lose the update.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../core/ports';
import { errorText } from '../core/util/error-text';

const FILE = 'current-session.json';

export class CurrentSessionFile {
  constructor(private readonly dir: string | undefined) {}

  read(): string | undefined {
    if (!this.dir) return undefined;
    try {
      const parsed: unknown = JSON.parse(readFileSync(join(this.dir, FILE), 'utf8'));
      const id = (parsed as { sessionId?: unknown }).sessionId;
      return typeof id === 'string' && id ? id : undefined;
    } catch {
      return undefined; // none yet, or unreadable: start with a new chat
    }
  }

  /** write(), with a failure logged rather than thrown (a chat goes on whether or not it is remembered). */
  /**
   * A reloaded window (or a restarted VS Code) reopens the chat this workspace had open — read from
   * history, so it waits for the store; the caller makes every message wait for the returned promise too,
   * so nothing is shown or sent in a chat about to be replaced. With no chat to reopen it waits for nothing.
   */
  reopen(storeReady: Promise<unknown>, resume: (sessionId: string) => Promise<boolean>, log: Logger): Promise<void> {
    const last = this.read();
    const restored = last
      ? storeReady.then(async () => {
          if (!(await resume(last)))
            log.info('the last chat of this workspace is gone from history; starting a new one');
        })
      : Promise.resolve();
    restored.catch((err: unknown) => log.error(`could not reopen the last chat: ${String(err)}`));
    return restored;
  }

  remember(sessionId: string | undefined, log: Logger): void {
    try {
      this.write(sessionId);
    } catch (err) {
      log.warn(`could not remember the current chat: ${errorText(err)}`);
    }
  }

  write(sessionId: string | undefined): void {
    if (!this.dir) return;
    mkdirSync(this.dir, { recursive: true });
    const tmp = join(this.dir, `${FILE}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify({ sessionId: sessionId ?? null }));
    renameSync(tmp, join(this.dir, FILE));
  }
}
