// Interrupted runs: a window that dies mid-request (SIGKILL: a crash, or a reload) leaves its session
// marked running by a writer that is gone. The next open lists it as interrupted, with the partial work
// readable: the user's message, the answer streamed so far, the tool call and its card, the checkpoint.
// A run in a window that is still open is never "interrupted" — it runs elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInterface } from 'node:readline';
import { created, open, tempDir } from './helpers';
import { spawnChild } from './child';

test('SIGKILL mid-run: the session is listed as interrupted with its partial work; while alive it runs elsewhere', {
  timeout: 120_000,
}, async () => {
  const { dir, cleanup } = tempDir('interrupted');
  try {
    const child = await spawnChild(['run', dir, 'R']);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
      child.on('exit', (code, sig) => resolve(sig ?? code)),
    );
    let lastAck = 0;
    let reached!: () => void;
    const waiting = new Promise<void>((r) => (reached = r));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^ack (\d+)$/.exec(line);
      if (m) lastAck = Number(m[1]);
      if (line === 'waiting') reached();
    });
    await Promise.race([waiting, exited]);
    // Another window opens the store while the run goes on: not interrupted, it runs elsewhere.
    const other = await open(dir);
    assert.deepEqual(other.interruptedSessions(), [], `a live window's run is not interrupted: ${stderr}`);
    assert.equal(other.runningElsewhere('R'), true);
    child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL', stderr);
    // The same window sees it once the writer is gone (its journal is read at the call).
    assert.deepEqual(
      other.interruptedSessions().map((s) => [s.id, s.requestId]),
      [['R', 'R-req']],
    );
    assert.equal(other.runningElsewhere('R'), false);
    await other.close();

    const store = await open(dir);
    const [entry] = store.interruptedSessions();
    assert.equal(entry?.id, 'R');
    assert.equal(entry.title, 'run R');
    assert.equal(entry.requestId, 'R-req');
    assert.ok(entry.startedAt > 0 && entry.lastEventAt >= entry.startedAt);
    assert.equal(store.listSessions().find((s) => s.id === 'R')?.interrupted, true, 'the History entry says so');
    const s = store.getSession('R');
    assert.ok(s);
    assert.deepEqual(
      s.messages.map((m) => [m.role, m.status]),
      [
        ['user', 'done'],
        ['assistant', 'streaming'],
      ],
    );
    const answer = s.messages[1].parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    assert.ok(answer.startsWith('Reading it. 1;2;3;'), answer.slice(0, 40));
    const acked = answer.slice('Reading it. '.length).split(';').filter(Boolean).map(Number);
    assert.equal(lastAck, 100);
    assert.deepEqual(
      acked,
      Array.from({ length: 100 }, (_, i) => i + 1),
      'every delta, in order, none twice',
    );
    const tool = s.messages[1].parts.find((p) => p.type === 'tool');
    assert.equal(tool?.type === 'tool' && tool.call.status, 'running', 'the tool card as it was');
    assert.deepEqual(
      s.checkpoints?.map((c) => c.requestId),
      ['R-req'],
    );
    assert.deepEqual(
      s.modelMessages.map((m) => m.role),
      ['user', 'assistant'],
      'the model history as journaled: the call without its result',
    );

    // Dealt with (Continue ran, or the user dismissed it): no longer interrupted, in this and later opens.
    store.markEnded('R');
    assert.deepEqual(store.interruptedSessions(), []);
    assert.equal(store.listSessions().find((x) => x.id === 'R')?.interrupted, undefined);
    await store.close();
    const again = await open(dir);
    assert.deepEqual(again.interruptedSessions(), []);
    await again.close();
  } finally {
    cleanup();
  }
});

test('a run that ends is not interrupted; a deleted interrupted session is not listed', async () => {
  const { dir, cleanup } = tempDir('runs');
  try {
    const a = await open(dir);
    a.append(created('done', 10, 'finished'));
    a.markRunning('done', 'q1');
    assert.deepEqual(a.interruptedSessions(), [], 'this window runs it');
    a.markEnded('done');
    // A run left by a window whose process is gone (pid 2^22 + 1 is above Linux's pid_max default).
    a.append(created('gone', 11, 'left running'));
    a.append({ kind: 'run_state', sessionId: 'gone', requestId: 'q2', writer: '4194305-deadbeef', at: 12 });
    a.append(created('deleted', 13, 'left running, deleted'));
    a.append({ kind: 'run_state', sessionId: 'deleted', requestId: 'q3', writer: '4194305-deadbeef', at: 14 });
    a.append({ kind: 'session_deleted', sessionId: 'deleted', at: 15 });
    assert.deepEqual(
      a.interruptedSessions().map((s) => s.id),
      ['gone'],
    );
    await a.close();
    const b = await open(dir);
    assert.deepEqual(
      b.interruptedSessions().map((s) => [s.id, s.requestId, s.startedAt]),
      [['gone', 'q2', 12]],
    );
    await b.close();
  } finally {
    cleanup();
  }
});
