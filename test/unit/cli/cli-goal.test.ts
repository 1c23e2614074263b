// `/goal` and the total budget on the command line: the same goal loop and fleet as the chat (through the
// engine's controller), as a user runs `sextant`: a spawned process against the fake LLM server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
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

const allow = ['--allow', 'Bash(test -f done.txt)', '--allow', 'Bash(touch done.txt)', '--sandbox', 'off'];

test('/goal --check keeps working until the command passes; exit 0 once it did', async () => {
  fake.reset();
  fake.enqueue(
    { text: 'I looked around.' },
    { toolCalls: [{ name: 'bash', arguments: { command: 'touch done.txt', description: 'finish' } }] },
    { text: 'Made it.' },
  );
  const h = makeCliHome(fake);
  const r = await runCli(h, [
    '-p',
    '/goal --check "test -f done.txt" make done.txt',
    ...allow,
    '--output-format',
    'stream-json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(path.join(h.workspace, 'done.txt')), true);
  assert.equal(fake.requests.length, 3, 'two attempts: the first check failed, the second passed');
  assert.match(r.stdout, /Goal check 1: failed/);
  assert.match(r.stdout, /Goal check 2: passed/);
});

test('a goal whose check never passes stops at sextant.goal.maxAttempts with exit 1', async () => {
  fake.reset();
  fake.enqueue({ text: 'Trying.' }, { text: 'Trying again.' }, { text: 'never reached' });
  const h = makeCliHome(fake, { 'sextant.goal.maxAttempts': 2 });
  const r = await runCli(h, ['-p', '/goal --check "test -f done.txt"', ...allow, '--output-format', 'stream-json']);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(fake.requests.length, 2);
  const result = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as { end: string; error?: string };
  assert.equal(result.end, 'error');
  assert.match(result.error ?? '', /the goal was not reached \(failed: 2 attempts/);
});

test('sextant.budget.totalMaxTokens stops the run with exit 3, counted as it spends', async () => {
  fake.reset();
  fake.enqueue(
    {
      toolCalls: [{ name: 'read_file', arguments: { file_path: 'a.txt' } }],
      usage: { inputTokens: 900, outputTokens: 200 },
    },
    { text: 'never reached' },
  );
  const h = makeCliHome(fake, { 'sextant.budget.totalMaxTokens': 1_000 }, { 'a.txt': 'hello\n' });
  const r = await runCli(h, ['-p', 'read a.txt', '--mode', 'agent', '--output-format', 'stream-json']);
  assert.equal(r.code, 3, r.stderr);
  assert.equal(fake.requests.length, 1);
  assert.match(r.stdout, /sextant\.budget\.totalMaxTokens/);
});
