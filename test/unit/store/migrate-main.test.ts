// A whole store folder written by the schema-v4 store (test/fixtures/store/main-v4: snapshot, .prev,
// a blob, a journal tail no snapshot holds) opens with this version, migrates to the cold layout at
// its first snapshots, and nothing is lost: every session, message, tool output, checkpoint, todo,
// the journal tail, the deleted session (restorable), export and search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSessionExport, SCHEMA_VERSION, type SessionStore } from '../../../extension/core/store';
import { open, recordingLog, ROOT, sql, tempDir } from './helpers';

const FIXTURE = join(ROOT, 'test/fixtures/store/main-v4');
const BIG = `${'build log line with enough words to be a real tool output\n'.repeat(700)}END`;

function contents(store: SessionStore) {
  return {
    list: store.listSessions(),
    a: store.getSession('old-a'),
    b: store.getSession('old-b'),
    exportB: store.exportSession('old-b', 'json'),
    gone: store.exportSession('old-gone', 'markdown'),
  };
}

test(`a schema-v4 store folder migrates to v${SCHEMA_VERSION} and the cold layout with nothing lost`, async () => {
  const { dir, cleanup } = tempDir('migmain');
  try {
    cpSync(FIXTURE, dir, { recursive: true });
    const log = recordingLog();
    const now = () => 1_800_000_000_000;
    let store = await open(dir, { log, now });
    assert.ok(
      log.lines.some((l) => l.includes('migrated from schema v4')),
      log.lines.join('\n'),
    );
    const first = contents(store);
    assert.deepEqual(
      first.list.map((s) => [s.id, s.title, s.messageCount]),
      [
        ['old-a', 'Ingress (renamed)', 4],
        ['old-b', 'Build failure', 4],
      ],
    );
    assert.deepEqual(
      first.a?.messages.map((m) => m.id),
      ['ra1-u', 'ra1-a', 'ra2-u', 'ra2-a'],
      'the journal tail is replayed',
    );
    const tool = first.b?.messages[3].parts.find((p) => p.type === 'tool');
    assert.equal(tool?.type === 'tool' ? tool.call.detail : '', BIG, 'the blob-stored output');
    assert.deepEqual(first.b?.checkpoints, [{ userMessageId: 'rb2-u', requestId: 'rb2', modelIndex: 2 }]);
    assert.deepEqual(first.b?.todos, [{ id: 't1', content: 'Fix loader', status: 'pending' }]);
    assert.equal(store.getSession('old-gone'), undefined, 'deleted stays deleted');
    assert.match(first.gone ?? '', /Scratch answer/);
    await store.close();
    // The sessions are from 2025: the first snapshot moved them to cold files.
    assert.equal(readdirSync(join(dir, 'sessions')).filter((f) => f.endsWith('.json.gz')).length, 3);
    const SQL = await sql();
    const db = new SQL.Database(readFileSync(join(dir, 'sextant.db')));
    assert.equal(db.exec('PRAGMA user_version')[0].values[0][0], SCHEMA_VERSION);
    assert.equal(db.exec('SELECT count(*) FROM messages')[0].values[0][0], 0, 'no body left in the database');
    db.close();
    for (let i = 0; i < 2; i++) {
      store = await open(dir, { log, now });
      assert.ok(JSON.stringify(contents(store)) === JSON.stringify(first), `reopen ${i + 1}: identical`);
      const hits = await store.searchMemory('webpack sourcemap');
      assert.equal(hits[0]?.sessionId, 'old-b');
      assert.match(hits[0]?.excerpt ?? '', /webpack/);
      if (i === 1) {
        store.append({ kind: 'session_restored', sessionId: 'old-gone', at: now() });
        assert.equal(store.getSession('old-gone')?.messages.length, 2, 'the deleted session is still restorable');
      }
      await store.close();
    }
    assert.deepEqual(parseSessionExport(first.exportB ?? '').session.todos.length, 1);
    assert.ok(!log.lines.some((l) => l.startsWith('error')), log.lines.join('\n'));
  } finally {
    cleanup();
  }
});
