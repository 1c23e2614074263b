// The store opened in the background (openSessionStoreLazily): records appended before the database
// is open are durable at once, are in the database once it opens, survive a SIGKILL at any moment,
// and a database that cannot be opened leaves the chat working and the file untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSessionStoreLazily, SCHEMA_VERSION } from '../../../extension/core/store';
import { created, exchange, open, recordingLog, sql, tempDir } from './helpers';
import { spawnChild } from './child';

test('appends before the database is open are journaled at once and readable once it opens', async () => {
  const { dir, cleanup } = tempDir('lazy');
  try {
    const first = await open(dir);
    first.append(created('old', 50, 'Older chat'));
    await first.close();

    const earlier = new Set(readdirSync(join(dir, 'journal')));
    const store = openSessionStoreLazily({ dir, log: recordingLog(), sql: await sql(), snapshotDelayMs: 60_000 });
    assert.equal(store.isOpen, false);
    const records = [created('s1', 100, 'First'), ...exchange('s1', 'r1', 200, 'Hello?', 'Hello there.')];
    for (const r of records) store.append(r);
    // Already on disk, before the database is open: one line per record in this writer's segment.
    const segments = readdirSync(join(dir, 'journal')).filter((f) => !earlier.has(f));
    const lines = segments.flatMap((f) =>
      readFileSync(join(dir, 'journal', f), 'utf8')
        .split('\n')
        .filter(Boolean),
    );
    assert.equal(lines.length, records.length);
    assert.equal(store.isOpen, false, 'the appends did not wait for the database');

    assert.equal(await store.ready, true);
    assert.equal(store.getSession('s1')?.messages.at(-1)?.parts.at(-1)?.type, 'text');
    // Appends after opening continue the same writer's sequence (no record replayed twice).
    store.append(exchange('s1', 'r2', 300, 'Again?', 'Again.')[0]);
    assert.deepEqual(
      store.listSessions().map((s) => s.id),
      ['s1', 'old'],
    );
    assert.equal(store.getSession('s1')?.messages.length, 4);
    await store.close();

    const reopened = await open(dir);
    assert.equal(reopened.getSession('s1')?.messages.length, 4);
    assert.equal(reopened.countSessions(), 2);
    await reopened.close();
  } finally {
    cleanup();
  }
});

test('killed while the database opens or after: every acknowledged record is there on reopen', async () => {
  for (const killAfter of [1, 3, 40, 400]) {
    const { dir, cleanup } = tempDir('lazy-kill');
    try {
      const child = await spawnChild(['lazy', dir, 'lz']);
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise((resolve) => child.on('exit', resolve));
      let lastAck = 0;
      let openedBeforeKill = false;
      for await (const line of createInterface({ input: child.stdout! })) {
        if (line === 'open') openedBeforeKill = true;
        const m = /^ack (\d+)$/.exec(line);
        if (m) lastAck = Number(m[1]);
        if (lastAck >= killAfter) {
          child.kill('SIGKILL');
          break;
        }
      }
      await exited;
      assert.equal(stderr.includes('child failed'), false, stderr);
      const store = await open(dir);
      const text = JSON.stringify(store.getSession('lz')?.messages ?? []);
      for (let i = 1; i <= lastAck; i++)
        if (i % 7 !== 0) assert.ok(text.includes(`${i};`), `ack ${i} lost (open before kill: ${openedBeforeKill})`);
      await store.close();
    } finally {
      cleanup();
    }
  }
});

test('a newer database: ready is false, appends are dropped quietly, the file is untouched', async () => {
  const { dir, cleanup } = tempDir('lazy-newer');
  try {
    const SQL = await sql();
    const db = new SQL.Database();
    db.exec(`CREATE TABLE future (x); PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    writeFileSync(join(dir, 'sextant.db'), db.export());
    db.close();
    const hash = () =>
      createHash('sha256')
        .update(readFileSync(join(dir, 'sextant.db')))
        .digest('hex');
    const before = hash();
    const reasons: unknown[] = [];
    const onUnavailable = (e: unknown) => reasons.push(e);
    const store = openSessionStoreLazily({ dir, log: recordingLog(), sql: SQL, onUnavailable });
    assert.equal(await store.ready, false);
    assert.match(String(reasons[0]), /newer version of Sextant/);
    store.append(created('s1', 1));
    assert.deepEqual(store.listSessions(), []);
    assert.deepEqual(await store.searchMemory('anything'), []);
    await store.close();
    assert.equal(hash(), before);
    assert.deepEqual(readdirSync(join(dir, 'journal')), [], 'the unused journal segment is removed');
  } finally {
    cleanup();
  }
});

test('openOnFirstUse: appends are journaled and the database stays closed until history is read', async () => {
  const { dir, cleanup } = tempDir('lazy-deferred');
  try {
    const SQL = await sql();
    // Opening starts by reading the options' sql.js: a getter tells whether it ever started.
    let opened = 0;
    const opts = { dir, log: recordingLog(), snapshotDelayMs: 60_000, openOnFirstUse: true };
    Object.defineProperty(opts, 'sql', {
      enumerable: true,
      get: () => {
        opened++;
        return SQL;
      },
    });
    const store = openSessionStoreLazily(opts);
    const records = [created('s1', 100, 'First'), ...exchange('s1', 'r1', 200, 'Hello?', 'Hello there.')];
    for (const r of records) store.append(r);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    // Nothing asked for history: the database was never opened (a one-shot run's request never waits).
    assert.equal(opened, 0);
    assert.equal(store.isOpen, false);
    // The first reader opens it, with every record appended meanwhile.
    assert.equal(await store.ready, true);
    assert.equal(opened, 1);
    assert.equal(store.getSession('s1')?.messages.length, 2);
    await store.close();
    const reopened = await open(dir);
    assert.equal(reopened.getSession('s1')?.messages.length, 2);
    await reopened.close();
  } finally {
    cleanup();
  }
});
