// `sextant -p … --permission-mode auto`: the extension's auto mode through the same core — a reviewer
// model (here the run's own model, the fake server) answers what no rule covers. Its allow lets the
// edit run; its ask, with nobody to ask in a non-interactive run, is refused (exit 4).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { makeCliHome, runCli } from './cli-harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
});

const write = { toolCalls: [{ name: 'write_file', arguments: { file_path: 'notes/todo.md', content: '# todo\n' } }] };
const isReviewer = (i: number) => JSON.stringify(fake.requests[i]?.body).includes('You review one action');

test('--permission-mode auto: the reviewer allows the edit, it runs, exit 0', async () => {
  fake.reset();
  fake.enqueue(
    write,
    { text: '{"decision": "allow", "reason": "the file the user asked for"}' },
    { text: 'Wrote it.' },
  );
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'write the todo file', '--mode', 'agent', '--permission-mode', 'auto']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(path.join(h.workspace, 'notes/todo.md'), 'utf8'), '# todo\n');
  assert.ok(isReviewer(1), 'the second request was the review');
  assert.ok(!isReviewer(0) && !isReviewer(2));
});

test('--permission-mode auto: the reviewer asks, so the edit is refused, exit 4', async () => {
  fake.reset();
  fake.enqueue(write, { text: '{"decision": "ask", "reason": "not what was asked"}' }, { text: 'Could not.' });
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'write the todo file', '--mode', 'agent', '--permission-mode', 'auto']);
  assert.equal(r.code, 4, r.stderr);
  assert.equal(existsSync(path.join(h.workspace, 'notes/todo.md')), false);
  assert.ok(isReviewer(1));
});
