// The `sextant` command as a user runs it: a spawned process with its own SEXTANT_HOME, talking to the
// fake LLM server over the real OpenAI wire format (issue 38's "Must show" for the command line).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { FAKE_KEY, filesContaining, makeCliHome, runCli, sentMessages, writeConfig } from './cli-harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
});

test('-p in text format prints the answer on stdout and exits 0', async () => {
  fake.reset();
  fake.enqueue({ text: 'Hello from the fake model.' });
  const h = makeCliHome(fake);
  const r = await runCli(h, ['-p', 'say hello']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Hello from the fake model.\n');
  assert.match(JSON.stringify(sentMessages(fake, 0)), /say hello/);
});
