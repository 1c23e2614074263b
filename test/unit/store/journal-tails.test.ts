// Picking up other windows' journal records reads only what they appended since the last time
// (journal-tails.ts): a line still being written waits for its newline, a file that shrank is read
// again from the start, and a store refreshing after each of another window's appends sees each
// record once, in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JournalTails } from '../../../extension/core/store/journal-tails';
import { created, open, recordingLog, tempDir } from './helpers';

const line = (seq: number, text: string) => `${JSON.stringify({ s: seq, r: { kind: 'x', text } })}\n`;

test('each call reads only the lines appended since; a line without its newline waits for it', () => {
  const { dir, cleanup } = tempDir('tails');
  try {
    const file = join(dir, 'w.000001.jsonl');
    writeFileSync(file, line(1, 'one') + line(2, 'twö'));
    const tails = new JournalTails();
    assert.deepEqual(
      tails.linesSince(file).map((l) => l.seq),
      [1, 2],
    );
    assert.deepEqual(tails.linesSince(file), [], 'nothing new: nothing read');
    // A write under way: half a line.
    const third = line(3, 'three – ü');
    appendFileSync(file, third.slice(0, 9));
    assert.deepEqual(tails.linesSince(file), [], 'the partial line waits');
    appendFileSync(file, third.slice(9) + line(4, 'four'));
    assert.deepEqual(
      tails.linesSince(file).map((l) => [l.seq, (l.record as { text: string }).text]),
      [
        [3, 'three – ü'],
        [4, 'four'],
      ],
    );
    // Replaced by a shorter file: read again from its start.
    writeFileSync(file, line(9, 'new'));
    assert.deepEqual(
      tails.linesSince(file).map((l) => l.seq),
      [9],
    );
    assert.deepEqual(tails.linesSince(join(dir, 'missing.jsonl')), []);
  } finally {
    cleanup();
  }
});

test("a window refreshing after each of another window's records sees every record once, in order", async () => {
  const { dir, cleanup } = tempDir('tails-two');
  try {
    const log = recordingLog();
    const reader = await open(dir, { log });
    const writer = await open(dir);
    for (let i = 0; i < 40; i++) {
      writer.append(created(`s${i}`, 100 + i, `session ${i}`));
      await writer.flush();
      reader.refresh();
      assert.equal(reader.listSessions().length, i + 1, `after record ${i + 1}`);
    }
    assert.deepEqual(
      reader
        .listSessions()
        .map((s) => s.title)
        .sort(),
      Array.from({ length: 40 }, (_, i) => `session ${i}`).sort(),
    );
    assert.deepEqual(
      log.lines.filter((l) => /unreadable|skipped/.test(l)),
      [],
    );
    await writer.close();
    await reader.close();
  } finally {
    cleanup();
  }
});
