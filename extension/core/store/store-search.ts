// The store's memory search: hot chunks (FTS4) and cold sessions' segment files ranked together
// (memory-query.ts, cold-search.ts), scoped to this window's workspace unless widened, with a cold hit's
// excerpt read from its session file; a damaged segment is rebuilt from the cold files on the spot.
import type { Logger, StoredSession } from '../ports';
import { fillColdExcerpt } from './cold-excerpt';
import type { ColdFiles } from './cold-files';
import { rebuildSegment } from './cold-index-upkeep';
import { ColdSearch } from './cold-search';
import type { Embedder } from './embeddings';
import { searchMemory, type MemoryHit, type MemorySearchOptions } from './memory-query';
import type { Database } from './sqljs';

export interface StoreSearchOptions {
  dir: string;
  log: Logger;
  cold: ColdFiles;
  db: () => Database;
  embedder: Embedder | undefined;
  /** This window's workspace key (the default scope). */
  workspace?: () => string | undefined;
  /** A session with its body (read from its cold file when cold); undefined when it cannot be read. */
  readSession: (id: string) => StoredSession | undefined;
  /** The database changed outside a record (vectors, a rebuilt segment): worth a snapshot. */
  changed: () => void;
}

export class StoreSearch {
  readonly coldSearch: ColdSearch;
  embedder: Embedder | undefined;

  constructor(private readonly opts: StoreSearchOptions) {
    this.embedder = opts.embedder;
    this.coldSearch = new ColdSearch(opts.dir, opts.log, (segment) => this.rebuild(segment));
  }

  /** A damaged search segment: index its sessions again from their cold files (saved by the next snapshot). */
  private rebuild(segment: string): void {
    try {
      rebuildSegment(this.opts.db(), this.opts.dir, this.opts.cold, this.opts.log, segment);
    } catch (err) {
      this.opts.log.error(`store: could not rebuild the search index file ${segment}: ${(err as Error).message}`);
    }
    this.opts.changed();
  }

  async search(query: string, opts: MemorySearchOptions): Promise<MemoryHit[]> {
    // The agent's memory stays in its project: another project's conversations are not its to read
    // (an injection in one repository must not pull text from the others) unless the user widened it.
    const own = this.opts.workspace?.();
    const workspace = opts.workspace ?? (opts.scope === 'all' || own === undefined ? undefined : own);
    const hits = await searchMemory(this.opts.db, query, {
      ...opts,
      workspace,
      embedder: this.embedder,
      log: this.opts.log,
      cold: this.coldSearch,
    });
    // A hit on a cold session: the excerpt and message come from its file (best message).
    for (const hit of hits) {
      if (hit.messageId) continue;
      const session = this.opts.readSession(hit.sessionId);
      if (session) fillColdExcerpt(hit, session, query);
    }
    // New vectors are derived data: worth a snapshot, but not a journal record.
    if (this.embedder) this.opts.changed();
    return hits;
  }
}
