// Database-sized buffers outside malloc (file-bytes.ts): the build's patch of sql.js's glue must be in
// effect (these tests run the glue as the build patched it), every path through it must keep the
// database whole, and a glue the patch does not know must fail the build, naming the place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { patchSqlJsGlue } from '../../../scripts/sqljs-file-bytes.mjs';
import { FILE_BYTES_OUTSIDE_MALLOC, fileBytes, fileBytesPlacedOutside } from '../../../extension/core/store/file-bytes';
import { created, exchange, open, ROOT, sql, tempDir } from './helpers';

const GLUE = join(ROOT, 'node_modules/sql.js/dist/sql-wasm.js');

/**
 * Whether `bytes` sits in a WebAssembly.Memory: such a buffer cannot be detached, so transferring it
 * leaves it whole, while a plain one is emptied by the transfer (call this last on a buffer).
 */
function inWasmMemory(bytes: Uint8Array): boolean {
  const before = bytes.buffer.byteLength;
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  return before > 0 && bytes.buffer.byteLength === before;
}

test('fileBytes: small buffers are plain, large ones are zeroed pages of their own, exactly as long', () => {
  const small = fileBytes(1000);
  assert.equal(small.length, 1000);
  assert.equal(inWasmMemory(small), false, 'a small buffer is a plain array');
  const before = fileBytesPlacedOutside();
  const big = fileBytes(FILE_BYTES_OUTSIDE_MALLOC + 5);
  assert.equal(big.length, FILE_BYTES_OUTSIDE_MALLOC + 5);
  assert.ok(big.every((b) => b === 0));
  assert.ok(inWasmMemory(big));
  assert.equal(fileBytesPlacedOutside(), before + 1);
});

test('the patch finds each place in the installed sql.js, and refuses a glue that moved one, naming it', () => {
  const glue = readFileSync(GLUE, 'utf8');
  const patched = patchSqlJsGlue(glue);
  assert.equal(patched.split('Module.allocFileBytes(').length - 1, 4, 'the four call sites');
  assert.match(
    patched,
    /Module\.allocFileBytes = Module\.allocFileBytes \|\| function/,
    'the default when a caller gives none',
  );
  const moved = glue.replace('u=new Uint8Array(G[0].values[0][0]*G[1].values[0][0])', 'u=new Uint8Array(N)');
  assert.throws(() => patchSqlJsGlue(moved), /export\(\): the buffer SQLite's backup API copies.*found 0 times/);
  assert.throws(() => patchSqlJsGlue(glue + glue), /found 2 times/);
});

test('through the patched glue: growth, export, truncation and reopening keep the database whole', async () => {
  const SQL = await sql();
  const db = new SQL.Database();
  const before = fileBytesPlacedOutside();
  db.run('CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)');
  const blob = new Uint8Array(3 * FILE_BYTES_OUTSIDE_MALLOC).map((_, i) => (i * 7) & 255);
  db.run('INSERT INTO t (k, v) VALUES (1, ?), (2, ?)', [blob, blob.subarray(0, 1000)]);
  const grown = fileBytesPlacedOutside();
  assert.ok(grown > before, 'the file grew past 1 MiB through the hook');
  const bytes = db.export();
  assert.ok(fileBytesPlacedOutside() > grown, 'export() allocated through the hook');
  const copy = new SQL.Database(bytes);
  assert.equal(copy.exec('PRAGMA integrity_check')[0].values[0][0], 'ok');
  const back = copy.exec('SELECT v FROM t WHERE k = 1')[0].values[0][0] as Uint8Array;
  assert.deepEqual(Buffer.from(back), Buffer.from(blob));
  // Deleting and vacuuming truncates the file (the ftruncate path), and the database still works.
  db.run('DELETE FROM t WHERE k = 1');
  db.run('VACUUM');
  assert.equal(db.exec('PRAGMA integrity_check')[0].values[0][0], 'ok');
  assert.equal(db.exec('SELECT count(*) FROM t')[0].values[0][0], 1);
  const small = db.export();
  assert.ok(small.length < FILE_BYTES_OUTSIDE_MALLOC, `vacuumed to ${small.length} bytes`);
  assert.equal(new SQL.Database(small).exec('SELECT length(v) FROM t')[0].values[0][0], 1000);
  db.close();
  copy.close();
  assert.ok(inWasmMemory(bytes), "export()'s bytes sit in a memory of their own");
});

test('a store whose snapshot passes 1 MiB reads it outside malloc at open, and every exchange reads back', async () => {
  const { dir, cleanup } = tempDir('file-bytes');
  try {
    let store = await open(dir);
    // Written now: a session idle for 14 days would move to a cold file and leave the database.
    const t = Date.now();
    store.append(created('s1', t, 'Big'));
    // Answers under the blob threshold (32 KiB) stay in the database: 60 × 20 KB.
    const answer = 'All work and no play. '.repeat(900);
    for (let i = 0; i < 60; i++)
      for (const r of exchange('s1', `r${i}`, t + 100 + i * 10, `q${i}`, `${i} ${answer}`)) store.append(r);
    await store.flush();
    await store.close();
    const size = statSync(join(dir, 'sextant.db')).size;
    assert.ok(size > FILE_BYTES_OUTSIDE_MALLOC, `snapshot of ${size} bytes`);
    const before = fileBytesPlacedOutside();
    store = await open(dir);
    assert.ok(fileBytesPlacedOutside() > before, 'the snapshot was read through fileBytes');
    const session = store.getSession('s1');
    assert.equal(session?.messages.length, 120);
    assert.ok(
      session?.messages.every((m, i) => m.role === 'user' || JSON.stringify(m).includes(`${(i - 1) / 2} All work`)),
    );
    await store.close();
  } finally {
    cleanup();
  }
});
