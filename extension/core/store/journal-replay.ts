// Reading the journals against the high-water marks: replaying what every writer appended beyond them
// (at open, on a reload, and to pick up other windows' records), and deleting the segments two snapshots
// already hold. Kept apart from store.ts, which decides when; this file is how.
import * as fs from 'node:fs';
import type { JournalRecord, Logger } from '../ports';
import { listSegments, readSegment, type JournalWriter } from './journal';
import type { JournalTails } from './journal-tails';
import { writerIsAlive } from './lock';
import type { Hwm } from './open-db';
import type { Projection } from './projection';

/**
 * Applies every journal record beyond the high-water marks (skipping `skipWriter`), oldest first,
 * raising `hwm` as it goes. Returns how many records were applied. With `tails`, each segment is read
 * only from where the last replay with the same tails left it.
 */
export function replayJournals(
  dir: string,
  hwm: Hwm,
  skipWriter: string | undefined,
  projection: Projection,
  log: Logger,
  tails?: JournalTails,
): number {
  const byWriter = new Map<string, Array<{ seq: number; record: JournalRecord }>>();
  const segments = listSegments(dir);
  tails?.keepOnly(new Set(segments.map((s) => s.file)));
  for (const seg of segments) {
    if (seg.writer === skipWriter) continue;
    const from = hwm.get(seg.writer) ?? 0;
    const read = tails ? tails.linesSince(seg.file, log) : readSegment(seg.file, log);
    const lines = read.filter((l) => l.seq > from);
    if (lines.length === 0) continue;
    let list = byWriter.get(seg.writer);
    if (!list) {
      list = [];
      byWriter.set(seg.writer, list);
    }
    for (const l of lines) list.push({ seq: l.seq, record: l.record as JournalRecord });
  }
  // Merge writers by time while keeping each writer's own order.
  const queues = [...byWriter.entries()].map(([writer, list]) => ({
    writer,
    list: list.sort((a, b) => a.seq - b.seq),
    i: 0,
  }));
  let applied = 0;
  for (;;) {
    let best: (typeof queues)[number] | undefined;
    for (const q of queues)
      if (q.i < q.list.length && (!best || (q.list[q.i].record.at ?? 0) < (best.list[best.i].record.at ?? 0))) best = q;
    if (!best) break;
    const { seq, record } = best.list[best.i++];
    if (seq <= (hwm.get(best.writer) ?? 0)) continue;
    try {
      projection.apply(record);
    } catch (err) {
      log.error(`store: skipped journal record ${best.writer}#${seq}: ${(err as Error).message}`);
    }
    hwm.set(best.writer, seq);
    applied++;
  }
  return applied;
}

/** Deletes this writer's segments and dead writers' segments that the previous snapshot holds. */
export function deleteCoveredSegments(dir: string, journal: JournalWriter, writerId: string, prevHwm: Hwm): void {
  journal.deleteCovered(prevHwm.get(writerId) ?? 0);
  for (const seg of listSegments(dir)) {
    if (seg.writer === writerId || writerIsAlive(seg.writer)) continue;
    const lines = readSegment(seg.file);
    const max = lines.reduce((m, l) => Math.max(m, l.seq), 0);
    if (max <= (prevHwm.get(seg.writer) ?? 0)) fs.rmSync(seg.file, { force: true });
  }
}
