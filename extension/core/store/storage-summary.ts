// "Sextant: Show Storage": the store's disk use as lines a quick pick shows, and the retention
// setting's value checked. Kept in core so the VS Code side only shows and asks.
import type { StorageReport } from './retention';

export const PURGE_DAYS_DEFAULT = 30;
const PURGE_DAYS_MAX = 3650;

/** sextant.history.purgeDeletedAfterDays: a whole number of days, 0 = keep; anything else = the default. */
export function purgeDeletedAfterDays(raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) return PURGE_DAYS_DEFAULT;
  return Math.min(PURGE_DAYS_MAX, Math.floor(raw));
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export interface StorageLine {
  label: string;
  detail: string;
}

/** Where the space goes, largest meaningful parts first. */
export function storageLines(r: StorageReport, purgeDays: number): StorageLine[] {
  const total =
    r.snapshotBytes +
    r.prevSnapshotBytes +
    r.journalBytes +
    r.coldBytes +
    r.blobBytes +
    r.checkpointBytes +
    r.imageBytes;
  const keep = purgeDays > 0 ? `purged ${purgeDays} days after deletion` : 'kept until purged';
  return [
    { label: `Total ${formatBytes(total)}`, detail: `${r.sessions} chats, ${r.coldSessions} of them in cold files` },
    {
      label: `Recent chats and search index ${formatBytes(r.snapshotBytes)}`,
      detail: `the in-memory database (sextant.db) — plus ${formatBytes(r.prevSnapshotBytes)} for its previous copy`,
    },
    { label: `Older chats ${formatBytes(r.coldBytes)}`, detail: `${r.coldSessions} compressed cold session files` },
    { label: `Large tool outputs ${formatBytes(r.blobBytes)}`, detail: 'blobs/' },
    { label: `Images ${formatBytes(r.imageBytes)}`, detail: 'images/ (attached images and screenshots)' },
    { label: `Checkpoints ${formatBytes(r.checkpointBytes)}`, detail: 'file copies for rewinding turns' },
    { label: `Journal ${formatBytes(r.journalBytes)}`, detail: 'records not yet in two snapshots' },
    {
      label: `Deleted chats ${r.deletedSessions} (about ${formatBytes(r.deletedBytes)})`,
      detail: `restorable until purged; ${keep}`,
    },
    ...(r.pendingDeleteBytes > 0
      ? [{ label: `Being freed ${formatBytes(r.pendingDeleteBytes)}`, detail: 'removed after the next snapshots' }]
      : []),
  ];
}
