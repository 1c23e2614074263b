// What a snapshot does for disk space besides writing: moving sessions the hot policy lets go to cold
// files, purging deleted sessions past the retention period, queueing orphan files, and vacuuming when
// that leaves the database sparse. Kept apart from store.ts, which runs these under its snapshot lock.
import type { Logger } from '../ports';
import type { BlobStore } from './blobs';
import type { ColdFiles } from './cold-files';
import { mergeSmallSegments, migrateLegacyColdDocs, upgradeOldSegment } from './cold-index-upkeep';
import { coldCandidates, moveToCold, type HotPolicy } from './cold-move';
import type { Projection } from './projection';
import { purgeDeleted, queueOrphans } from './retention';
import type { Database } from './sqljs';
import { backfillColdUsage } from './usage-entries';

export interface StoreUpkeepOptions {
  dir: string;
  log: Logger;
  now: () => number;
  blobs: BlobStore;
  cold: ColdFiles;
  projection: Projection;
  /** Which sessions stay hot; undefined keeps every session hot. */
  policy: HotPolicy | undefined;
  /** Soft-deleted sessions are purged after this many days; 0 or undefined keeps them. */
  purgeAfterDays: number | undefined;
  /** Fault injection for the crash tests: called after a cold file is durable, before the database changes. */
  afterColdFileWritten?(): void;
}

export class StoreUpkeep {
  private purgeAfterDays: number | undefined;
  /** When the retention pass (purge + orphan scan) last ran; it runs at the first snapshot, then daily. */
  private lastRetentionAt = 0;
  /** When hot sessions were last checked for moving (a scan of the hot bodies; at most every 10 minutes). */
  private lastColdCheckAt = 0;

  constructor(private readonly opts: StoreUpkeepOptions) {
    this.purgeAfterDays = opts.purgeAfterDays;
  }

  /** The projection's database (a reload replaces it). */
  private get db(): Database {
    return this.opts.projection.db;
  }

  /** Whether the daily retention pass is due. */
  retentionDue(): boolean {
    return this.opts.now() - this.lastRetentionAt > 86_400_000;
  }

  setRetention(purgeDeletedAfterDays: number | undefined): void {
    this.purgeAfterDays = purgeDeletedAfterDays;
    this.lastRetentionAt = 0;
  }

  /**
   * Moves sessions the hot policy lets go to cold files (within the per-snapshot budget unless `all`).
   * Returns whether some are left for the next snapshot.
   */
  moveCold(all: boolean): boolean {
    const { policy: hotPolicy, projection, log } = this.opts;
    const now = this.opts.now;
    if (!hotPolicy) return false;
    if (!all && this.lastColdCheckAt > 0 && now() - this.lastColdCheckAt < hotPolicy.checkEveryMs) return false;
    this.lastColdCheckAt = now();
    const policy = all ? { ...hotPolicy, maxMoveBytes: Number.POSITIVE_INFINITY } : hotPolicy;
    const list = coldCandidates(this.db, policy, now(), projection.liveSessions());
    let moved = 0;
    if (list.length > 0) {
      try {
        const ids = list.map((c) => c.id);
        const done = moveToCold(
          this.db,
          this.opts.blobs,
          this.opts.cold,
          this.opts.dir,
          ids,
          log,
          this.opts.afterColdFileWritten,
        );
        for (const id of done) projection.forget(id);
        moved = done.length;
        mergeSmallSegments(this.db, this.opts.dir, log);
      } catch (err) {
        // The sessions stay hot; the next snapshot tries again.
        log.error(`store: could not move sessions to cold files: ${(err as Error).message}`);
        return false;
      }
    }
    if (moved > 0) {
      log.info(`store: moved ${moved} session(s) to cold files`);
      this.vacuumIfSparse();
    }
    const more = !all && moved > 0 && coldCandidates(this.db, policy, now(), projection.liveSessions()).length > 0;
    // More to move (past the per-snapshot budget): the next snapshot checks again at once.
    if (more) this.lastColdCheckAt = 0;
    return more;
  }

  /**
   * Moves cold sessions' search documents from before schema v7 out of the full-text index into a
   * segment file, a batch per snapshot, then rewrites version 1 segments (cold-index.ts) with their
   * checksums, one per snapshot. Returns whether some are left for the next snapshot.
   */
  migrateColdSearch(): boolean {
    // Usage of sessions that were cold before schema v10, a batch per snapshot (usage-entries.ts).
    let usageMore = false;
    try {
      usageMore = backfillColdUsage(this.db, this.opts.cold, this.opts.log);
    } catch (err) {
      this.opts.log.warn(`store: could not carry cold sessions' usage over: ${(err as Error).message}`);
    }
    return this.migrateColdIndex() || usageMore;
  }

  private migrateColdIndex(): boolean {
    const { migrated, more } = migrateLegacyColdDocs(this.db, this.opts.dir, this.opts.cold, this.opts.log);
    if (migrated > 0) {
      this.opts.log.info(`store: moved the search index of ${migrated} cold session(s) to a file`);
      mergeSmallSegments(this.db, this.opts.dir, this.opts.log);
      this.vacuumIfSparse();
    }
    if (more) return true;
    // Then segments from before the checksums inside (version 1), one per snapshot.
    try {
      return upgradeOldSegment(this.db, this.opts.dir, this.opts.cold, this.opts.log);
    } catch (err) {
      this.opts.log.warn(`store: could not rewrite a search index file: ${(err as Error).message}`);
      return false;
    }
  }

  /**
   * SQLite keeps the pages of deleted rows as free pages, and export() writes them all: after moves
   * or purges leave a quarter of the database free, VACUUM so the snapshot (and the next open) shrink.
   */
  private vacuumIfSparse(): void {
    const n = (sql: string) => Number(this.db.exec(sql)[0]?.values[0]?.[0] ?? 0);
    // Deleted chunks stay in the full-text index's segments until they are merged.
    this.db.exec("INSERT INTO memory_fts(memory_fts) VALUES('optimize')");
    const free = n('PRAGMA freelist_count');
    if (free > 64 && free * 4 > n('PRAGMA page_count')) this.db.exec('VACUUM');
  }

  /** Purges deleted sessions past the retention period (all of them with `allDeleted`) and queues orphan files. */
  retentionPass(allDeleted: boolean): { purged: number; orphans: number } {
    const now = this.opts.now;
    this.lastRetentionAt = now();
    let purged: string[] = [];
    const days = this.purgeAfterDays;
    if (allDeleted || (days !== undefined && days > 0))
      purged = purgeDeleted(
        this.db,
        allDeleted ? now() : now() - (days ?? 0) * 86_400_000,
        this.opts.cold,
        this.opts.log,
      );
    const orphans = queueOrphans(this.db, this.opts.dir, now());
    if (purged.length) this.vacuumIfSparse();
    if (purged.length || orphans.files)
      this.opts.log.info(`store: purged ${purged.length} deleted session(s); ${orphans.files} unused file(s) queued`);
    return { purged: purged.length, orphans: orphans.files };
  }

  /** How many sessions live in cold files. */
  countCold(): number {
    return Number(this.db.exec('SELECT count(*) FROM sessions WHERE cold_file IS NOT NULL')[0]?.values[0]?.[0] ?? 0);
  }
}
