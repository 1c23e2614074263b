// Chat history for an engine: the session store in the host's storage folder. The first request never
// waits for it: the journal writer opens now (cheap), the database (wasm + snapshot + journal replay) in
// the background; appends meanwhile are journaled at once and replayed into it when it opens.
import * as path from 'node:path';
import type { Logger } from '../core/ports';
// The store's parts by file, not its index: the index brings export (marked) and search, which a
// request does not need before the database opens.
import { openSessionStoreLazily } from '../core/store/lazy-store';
import { workspaceKey } from '../core/store/memory-query';
import { storageFullNotice } from '../core/store/write-failure';
import { errorText } from '../core/util/error-text';

export interface HistoryStoreOptions {
  /** The store's folder (VS Code: global storage; the command line: `~/.sextant`). */
  dir: string;
  /** The folder `sql-wasm.wasm` sits in. */
  bundleDir: string;
  log: Logger;
  /** The secret values to redact from every record (kept up to date by the providers). */
  secrets: () => Iterable<string>;
  purgeDeletedAfterDays: number;
  workspaceFolders(): string[];
  /** A write failed (a full disk): what to tell the user, said by the host where they will see it. */
  onWriteError(text: string): void;
  onWriteRecovered(): void;
  /** The store could not open: the chat still works, without history. */
  onUnavailable(why: string): void;
  /** Open the database when history is first read (or at close), not now (lazy-store.ts). */
  openOnFirstUse?: boolean;
}

export function openHistoryStore(o: HistoryStoreOptions) {
  const started = performance.now();
  const store = openSessionStoreLazily({
    dir: o.dir,
    wasmPath: path.join(o.bundleDir, 'sql-wasm.wasm'),
    log: o.log,
    secrets: o.secrets,
    purgeDeletedAfterDays: o.purgeDeletedAfterDays,
    ...(o.openOnFirstUse ? { openOnFirstUse: true } : {}),
    // Sessions remember their workspace, and the agent's memory search stays in it.
    workspace: () => workspaceKey(o.workspaceFolders()),
    onWriteError: (err, dir) => o.onWriteError(storageFullNotice(err, dir)),
    onWriteRecovered: () => o.onWriteRecovered(),
    onUnavailable: (err) => {
      const why = errorText(err);
      o.log.error(`history store unavailable: ${why}`);
      o.onUnavailable(why);
    },
  });
  // Asking for `ready` would open a deferred store now: only an eager one reports its opening time.
  if (!o.openOnFirstUse)
    void store.ready.then((ok) => {
      if (ok) o.log.info(`history store open in ${(performance.now() - started).toFixed(0)} ms`);
    });
  return store;
}
