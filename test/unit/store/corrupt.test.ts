// A corrupt snapshot is detected (checksum; integrity check when there is no checksum) and the
// state is recovered from the previous good snapshot plus the journal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { created, exchange, open, recordingLog, tempDir, type RecordingLog } from './helpers';
import type { SessionStore } from '../../../extension/core/store';

async function buildHistory(dir: string): Promise<void> {
  const store = await open(dir);
  store.append(created('s1', 1, 'one'));
  for (const r of exchange('s1', 'r1', 2, 'first question', 'first answer')) store.append(r);
  await store.flush(); // generation 1
  store.append(created('s2', 10, 'two'));
  for (const r of exchange('s2', 'r2', 11, 'second question', 'second answer')) store.append(r);
  await store.flush(); // generation 2; generation 1 becomes .prev
  store.append(created('s3', 20, 'three'));
  for (const r of exchange('s3', 'r3', 21, 'third question', 'third answer')) store.append(r);
  await store.close(); // generation 3; 2 becomes .prev
}

/** Whether the store said it opened from something other than the current snapshot (.prev, or nothing). */
const openedFromFallback = (log: RecordingLog) => log.lines.some((l) => /store: opened from (?!current)/.test(l));

function assertAll(store: SessionStore): void {
  assert.deepEqual(
    store.listSessions().map((s) => s.id),
    ['s3', 's2', 's1'],
  );
  for (const [id, word] of [
    ['s1', 'first'],
    ['s2', 'second'],
    ['s3', 'third'],
  ] as const) {
    const text = store.getSession(id)?.messages[1].parts.at(-1);
    assert.deepEqual(text, { type: 'text', text: `${word} answer` });
  }
}

test('flipped bytes fail the checksum; recovery uses .prev and the journal; the bad file is kept aside', async () => {
  const { dir, cleanup } = tempDir('corrupt');
  try {
    await buildHistory(dir);
    const file = join(dir, 'sextant.db');
    const bytes = readFileSync(file);
    for (let i = 0; i < 64; i++) bytes[Math.floor(bytes.length / 2) + i] ^= 0xff;
    writeFileSync(file, bytes);
    const log = recordingLog();
    let store = await open(dir, { log });
    assert.ok(
      log.lines.some((l) => /does not match its checksum/.test(l)),
      log.lines.join('\n'),
    );
    assert.ok(
      log.lines.some((l) => l.includes('store: opened from prev')),
      log.lines.join('\n'),
    );
    assertAll(store);
    await store.close();
    assert.ok(
      readdirSync(dir).some((f) => f.startsWith('sextant.db.corrupt-')),
      'corrupt file moved aside',
    );
    const again = recordingLog();
    store = await open(dir, { log: again });
    assert.ok(!openedFromFallback(again), again.lines.join('\n'));
    assertAll(store);
    await store.close();
  } finally {
    cleanup();
  }
});

test('a truncated snapshot without a checksum file fails the integrity check and is recovered alike', async () => {
  const { dir, cleanup } = tempDir('corrupt2');
  try {
    await buildHistory(dir);
    const file = join(dir, 'sextant.db');
    writeFileSync(file, readFileSync(file).subarray(0, 8192));
    rmSync(`${file}.meta.json`);
    const log = recordingLog();
    const store = await open(dir, { log });
    assert.ok(
      log.lines.some((l) => /unreadable/.test(l)),
      log.lines.join('\n'),
    );
    assertAll(store);
    await store.close();
  } finally {
    cleanup();
  }
});

test('with both snapshots unreadable, whatever the journal still holds is rebuilt and nothing throws', async () => {
  const { dir, cleanup } = tempDir('corrupt3');
  try {
    const store = await open(dir);
    store.append(created('only', 1, 'journal only'));
    await store.flush();
    store.append(created('later', 2, 'later'));
    // The window dies here: one snapshot, a journal tail. Then the disk eats both snapshot files.
    writeFileSync(join(dir, 'sextant.db'), 'garbage');
    writeFileSync(join(dir, 'sextant.db.prev'), 'garbage');
    const again = await open(dir);
    // A journal segment is deleted only once two snapshots hold it, so both records are still there.
    assert.deepEqual(
      again
        .listSessions()
        .map((s) => s.id)
        .sort(),
      ['later', 'only'],
    );
    await again.close();
  } finally {
    cleanup();
  }
});

test('a crash between any two renames of a snapshot write leaves a state that opens with everything', async () => {
  // The mutable CommonJS module object (the ESM namespace is read-only), which snapshot.ts calls through.
  const fs = createRequire(__filename)('node:fs') as typeof import('node:fs');
  const realRename = fs.renameSync;
  for (let crashAt = 0; crashAt < 4; crashAt++) {
    const { dir, cleanup } = tempDir(`rename${crashAt}`);
    try {
      const store = await open(dir);
      store.append(created('s1', 1, 'one'));
      await store.flush();
      store.append(created('s2', 2, 'two'));
      await store.flush();
      store.append(created('s3', 3, 'three'));
      let renames = 0;
      fs.renameSync = ((from: import('node:fs').PathLike, to: import('node:fs').PathLike) => {
        if (String(from).includes('sextant.db') && renames++ === crashAt)
          throw new Error(`simulated crash before rename ${crashAt}`);
        return realRename(from, to);
      }) as typeof fs.renameSync;
      await assert.rejects(store.flush(), /simulated crash/);
      fs.renameSync = realRename;
      // The window is gone (never closed); another one opens the folder.
      const again = await open(dir);
      assert.deepEqual(
        again.listSessions().map((s) => s.id),
        ['s3', 's2', 's1'],
        `crash before rename ${crashAt}`,
      );
      again.append(created('s4', 4, 'four'));
      await again.close();
      const thirdLog = recordingLog();
      const third = await open(dir, { log: thirdLog });
      assert.deepEqual(
        third.listSessions().map((s) => s.id),
        ['s4', 's3', 's2', 's1'],
      );
      assert.ok(!openedFromFallback(thirdLog), thirdLog.lines.join('\n'));
      await third.close();
    } finally {
      fs.renameSync = realRename;
      cleanup();
    }
  }
});
