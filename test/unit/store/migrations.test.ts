// Every earlier schema version (fixtures in test/fixtures/store/schema-v*.db) migrates forward
// with its content intact; a database from a newer Sextant is refused and left untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { NewerSchemaError, parseSessionExport, SCHEMA_VERSION } from '../../../extension/core/store';
import { open, recordingLog, ROOT, sql, tempDir } from './helpers';

const FIXTURES = join(ROOT, 'test/fixtures/store');
const fixtureVersions = readdirSync(FIXTURES)
  .map((f) => /^schema-v(\d+)\.db$/.exec(f)?.[1])
  .filter((v): v is string => Boolean(v))
  .map(Number)
  .sort((a, b) => a - b);

test('there is a fixture for every earlier schema version', () => {
  const expected = Array.from({ length: SCHEMA_VERSION - 1 }, (_, i) => i + 1);
  assert.deepEqual(
    fixtureVersions.filter((v) => v < SCHEMA_VERSION),
    expected,
  );
});

for (const version of fixtureVersions) {
  test(`schema v${version} → v${SCHEMA_VERSION}: all data survives, memory search is backfilled`, async () => {
    const { dir, cleanup } = tempDir(`mig${version}`);
    try {
      copyFileSync(join(FIXTURES, `schema-v${version}.db`), join(dir, 'sextant.db'));
      const original = readFileSync(join(dir, 'sextant.db'));
      const log = recordingLog();
      let store = await open(dir, { log });
      assert.ok(
        log.lines.some((l) => l.includes(`migrated from schema v${version}`)),
        log.lines.join('\n'),
      );
      assert.deepEqual(
        store.listSessions().map((s) => s.id),
        ['v1-b', 'v1-a'],
      );
      assert.deepEqual(
        store.listSessions().map((s) => s.messageCount),
        [2, 2],
      );
      assert.equal(store.getSession('v1-gone'), undefined, 'a deleted session stays deleted');
      const a = store.getSession('v1-a');
      assert.deepEqual(a?.messages[1].parts, [
        { type: 'thinking', text: 'Explain lifetimes.' },
        {
          type: 'text',
          text: 'A reference must not outlive the value it borrows; annotate lifetimes so the compiler can check it.',
        },
      ]);
      assert.deepEqual(a?.messages[1].usage, { inputTokens: 12, outputTokens: 40, cachedTokens: 0 });
      const b = store.getSession('v1-b');
      const tool = b?.messages[1].parts[1];
      assert.equal(tool?.type === 'tool' ? tool.call.detail : '', '#!/bin/sh\nrsync -av dist/ staging:/srv/app');
      assert.equal(b?.messages[1].error?.code, 'rate_limit');
      assert.equal(b?.modelMessages.length, 2);
      assert.deepEqual(
        b?.todos.map((t) => t.status),
        ['completed', 'pending'],
      );
      const exported = parseSessionExport(store.exportSession('v1-b', 'json') ?? '');
      assert.equal(exported.artifacts[0]?.citations?.[0]?.url, 'https://example.com/rsync');
      const hits = await store.searchMemory('borrow checker dangling reference');
      assert.equal(hits[0]?.sessionId, 'v1-a');
      // Until the first snapshot the old file is untouched; then it is kept as .prev.
      assert.deepEqual(readFileSync(join(dir, 'sextant.db')), original);
      store.append({
        kind: 'session_meta',
        sessionId: 'v1-a',
        title: 'Lifetimes',
        titleSource: 'user',
        at: 1800000000000,
      });
      store.append({ kind: 'session_restored', sessionId: 'v1-gone', at: 1800000000001 });
      await store.close();
      assert.deepEqual(readFileSync(join(dir, 'sextant.db.prev')), original);
      const SQL = await sql();
      const db = new SQL.Database(readFileSync(join(dir, 'sextant.db')));
      assert.equal(db.exec('PRAGMA user_version')[0].values[0][0], SCHEMA_VERSION);
      db.close();
      store = await open(dir);
      assert.equal(store.getSession('v1-a')?.title, 'Lifetimes');
      assert.ok(store.getSession('v1-gone'), 'the deleted session survived the migration and could be restored');
      await store.close();
    } finally {
      cleanup();
    }
  });
}

test('a database written by a newer version is refused with a clear message and left untouched', async () => {
  const { dir, cleanup } = tempDir('newer');
  try {
    const SQL = await sql();
    const db = new SQL.Database();
    db.exec(`CREATE TABLE future (x); PRAGMA user_version = ${SCHEMA_VERSION + 5}`);
    const bytes = db.export();
    db.close();
    const file = join(dir, 'sextant.db');
    writeFileSync(file, bytes);
    const before = createHash('sha256').update(readFileSync(file)).digest('hex');
    await assert.rejects(open(dir), (err: unknown) => {
      assert.ok(err instanceof NewerSchemaError);
      assert.match(
        (err as Error).message,
        new RegExp(
          `newer version of Sextant \\(schema v${SCHEMA_VERSION + 5}; ` +
            `this version understands up to v${SCHEMA_VERSION}\\)`,
        ),
      );
      assert.match((err as Error).message, /left untouched/);
      return true;
    });
    assert.equal(createHash('sha256').update(readFileSync(file)).digest('hex'), before);
    assert.deepEqual(readdirSync(dir), ['sextant.db'], 'no journal, lock or temp file was created');
    assert.equal(existsSync(join(dir, 'journal')), false);
  } finally {
    cleanup();
  }
});
