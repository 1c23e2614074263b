// Two VS Code windows share one global storage folder. Each appends to its own journal; snapshots
// are serialised by a lock and merge every window's journal. Nothing may be lost either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInterface } from 'node:readline';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { created, open, recordingLog, tempDir } from './helpers';
import { spawnChild } from './child';

async function runWriter(dir: string, tag: string, count: number): Promise<void> {
  const child = await spawnChild(['writer', dir, tag, String(count)]);
  let stderr = '';
  let done = false;
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: child.stdout! }).on('line', (l) => (done ||= l === 'done'));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stderr);
  assert.ok(done);
  assert.ok(!/error/.test(stderr), stderr);
}

test('two processes writing to one folder at the same time, snapshotting often: nothing is lost', {
  timeout: 120_000,
}, async () => {
  const { dir, cleanup } = tempDir('two');
  try {
    const count = 300;
    await Promise.all([runWriter(dir, 'A', count), runWriter(dir, 'B', count)]);
    const store = await open(dir);
    for (const tag of ['A', 'B']) {
      for (let s = 0; s < 3; s++) {
        const session = store.getSession(`${tag}-s${s}`);
        assert.ok(session, `${tag}-s${s}`);
        const expected: string[] = [];
        for (let i = s; i < count; i += 3) expected.push(`${tag}-${i}`);
        assert.deepEqual(
          session.modelMessages.map((m) => (m.role === 'user' ? m.content : '')),
          expected,
          `${tag}-s${s} has every record in order`,
        );
      }
    }
    assert.equal(store.listSessions().length, 6);
    await store.close();
  } finally {
    cleanup();
  }
});

test('two stores in one folder: each sees the other after a refresh; snapshots merge; reopen has all', async () => {
  const { dir, cleanup } = tempDir('two-inproc');
  try {
    const logA = recordingLog();
    const a = await open(dir, { log: logA });
    const b = await open(dir);
    a.append(created('a1', 10, 'from A'));
    b.append(created('b1', 11, 'from B'));
    await a.flush();
    assert.deepEqual(
      b
        .listSessions()
        .map((s) => s.id)
        .sort(),
      ['a1', 'b1'],
      'B picks up A from its journal',
    );
    b.append({ kind: 'model_messages', sessionId: 'b1', at: 12, messages: [{ role: 'user', content: 'b-1' }] });
    await b.flush(); // B reloads A's newer snapshot, replays both journals, writes generation 2
    a.append({ kind: 'model_messages', sessionId: 'a1', at: 13, messages: [{ role: 'user', content: 'a-1' }] });
    await a.flush(); // A reloads B's snapshot this time
    assert.deepEqual(a.getSession('b1')?.modelMessages, [{ role: 'user', content: 'b-1' }]);
    a.append({ kind: 'model_messages', sessionId: 'a1', at: 14, messages: [{ role: 'user', content: 'a-2' }] });
    b.append({ kind: 'model_messages', sessionId: 'b1', at: 15, messages: [{ role: 'user', content: 'b-2' }] });
    await Promise.all([a.close(), b.close()]);
    const c = await open(dir);
    assert.deepEqual(
      c.getSession('a1')?.modelMessages.map((m) => (m.role === 'user' ? m.content : '')),
      ['a-1', 'a-2'],
    );
    assert.deepEqual(
      c.getSession('b1')?.modelMessages.map((m) => (m.role === 'user' ? m.content : '')),
      ['b-1', 'b-2'],
    );
    await c.close();
    assert.ok(!logA.lines.some((l) => l.startsWith('error')), logA.lines.join('\n'));
    assert.ok(!readdirSync(dir).includes('sextant.lock'), 'lock released');
    assert.ok(readdirSync(join(dir, 'journal')).length <= 6, 'journal segments are cleaned up as snapshots cover them');
  } finally {
    cleanup();
  }
});

async function runHub(dir: string, tag: string, count: number): Promise<void> {
  const child = await spawnChild(['hub', dir, tag, String(count)]);
  let stderr = '';
  let done = false;
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  createInterface({ input: child.stdout! }).on('line', (l) => (done ||= l === 'done'));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, stderr);
  assert.ok(done);
  assert.ok(!/error/.test(stderr), stderr);
}

test('two windows streaming two sessions each and sharing one, with cold moves: reopen has every event once', {
  timeout: 180_000,
}, async () => {
  const { dir, cleanup } = tempDir('two-hub');
  try {
    const count = 60;
    await Promise.all([runHub(dir, 'A', count), runHub(dir, 'B', count)]);
    const store = await open(dir);
    for (const id of ['A-0', 'A-1', 'B-0', 'B-1']) {
      const s = store.getSession(id);
      assert.ok(s, id);
      assert.equal(s.messages.length, count * 2, `${id}: every request`);
      for (let r = 0; r < count; r++) {
        const text = s.messages[r * 2 + 1].parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
        assert.equal(text, `${r}.0;${r}.1;${r}.2;${r}.3;${r}.4;`, `${id} request ${r}: every delta once`);
      }
      assert.deepEqual(
        s.modelMessages.map((m) => (m.role === 'user' ? m.content : '')),
        Array.from({ length: count }, (_, r) => `q${r}`),
      );
    }
    // The shared session: both windows' writes land — each window's in its own order, interleaved with
    // the other's by when a snapshot merged them — none lost, none doubled.
    const shared = store.getSession('shared');
    assert.ok(shared);
    const got = shared.modelMessages.map((m) => (m.role === 'user' ? String(m.content) : ''));
    assert.equal(got.length, 4 * count, 'every message of both windows, none twice');
    assert.equal(new Set(got).size, got.length, 'no message twice');
    for (const id of ['A-0', 'A-1', 'B-0', 'B-1'])
      assert.deepEqual(
        got.filter((c) => c.startsWith(`${id}-`)),
        Array.from({ length: count }, (_, r) => `${id}-${r}`),
        `${id}'s writes to the shared session in their order`,
      );
    assert.equal(store.listSessions().length, 5);
    await store.close();
  } finally {
    cleanup();
  }
});
