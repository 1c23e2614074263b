// Crash safety of the move to cold files: a child appends to sessions that go cold at every snapshot
// and come back at the next append, and is SIGKILLed — at random moments, and exactly between "the
// cold file is durable" and "the snapshot naming it is written". After every kill the store reopens
// with every acknowledged record, in order, whether the session is hot or cold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createInterface } from 'node:readline';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, recordingLog, tempDir } from './helpers';
import { spawnChild } from './child';

const ITERATIONS = Number(process.env.STORE_COLD_CRASH_ITERATIONS ?? 16);

async function runAndKill(dir: string, tag: string, killAtMove: number, afterMs: number): Promise<number> {
  const child = await spawnChild(['cold', dir, tag, String(killAtMove)]);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, sig) => resolve(sig ?? code)),
  );
  let lastAck = 0;
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    if (line === 'ready' && killAtMove === 0) setTimeout(() => child.kill('SIGKILL'), afterMs);
    const m = /^ack (\d+)$/.exec(line);
    if (m) lastAck = Number(m[1]);
  });
  const how = await exited;
  await new Promise((r) => setImmediate(r));
  assert.equal(how, 'SIGKILL', `child ${tag} ended by ${String(how)}: ${stderr}`);
  assert.ok(!/error/.test(stderr), stderr);
  return lastAck;
}

test(`SIGKILL while sessions move to cold files, ${ITERATIONS} iterations: every acknowledged record survives`, {
  timeout: 600_000,
}, async (t) => {
  const { dir, cleanup } = tempDir('cold-crash');
  const acked = new Map<string, number>();
  let coldAtCheck = 0;
  try {
    for (let i = 0; i < ITERATIONS; i++) {
      const tag = `k${i}`;
      // Even iterations: killed right after the (i/2 + 1)-th cold file is durable; odd: at a random-ish moment.
      const killAtMove = i % 2 === 0 ? 1 + (i / 2) * 3 : 0;
      const last = await runAndKill(dir, tag, killAtMove, 20 + ((i * 37) % 150));
      acked.set(tag, last);
      const log = recordingLog();
      const store = await open(dir, { log, hot: false });
      try {
        for (const [tg, n] of acked) {
          for (let s = 0; s < 3; s++) {
            const session = store.getSession(`${tg}-${s}`);
            assert.ok(session, `${tg}-${s} exists`);
            const got = session.modelMessages.map((m) => (m.role === 'user' ? String(m.content) : '?'));
            const want: string[] = [];
            for (let k = 1; k <= n + 1; k++) if (k % 3 === s) want.push(`m${k}`);
            // Every acknowledged record; at most the one written-but-unacknowledged record more.
            const wantAcked = want.filter((w) => Number(w.slice(1)) <= n);
            assert.ok(
              JSON.stringify(got) === JSON.stringify(wantAcked) || JSON.stringify(got) === JSON.stringify(want),
              `${tg}-${s}: ${JSON.stringify(got)} (acknowledged up to ${n})`,
            );
          }
        }
        const row = store.listSessions({ limit: 10_000 });
        assert.equal(row.length, acked.size * 3);
      } catch (err) {
        throw new Error(`iteration ${i}: ${(err as Error).message}\nlog: ${log.lines.join('\n')}`);
      }
      if (existsSync(join(dir, 'sessions'))) coldAtCheck = readdirSync(join(dir, 'sessions')).length;
      await store.close();
      assert.ok(!log.lines.some((l) => l.startsWith('error')), log.lines.join('\n'));
    }
    const total = [...acked.values()].reduce((a, b) => a + b, 0);
    t.diagnostic(
      `${ITERATIONS} kills, ${total} acknowledged records checked, ${coldAtCheck} files in sessions/ at the end`,
    );
    assert.ok(coldAtCheck > 0, 'the children did move sessions to cold files');
  } finally {
    cleanup();
  }
});
