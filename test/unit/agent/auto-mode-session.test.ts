// The scripted 100-step Agent session (test/fixtures/auto-mode-session.ts), in auto mode with a
// reviewer that allows everything: only the safety part is asserted — the risky command and the write
// outside the workspace still ask (the floor), and nothing else the user is shown is a surprise. The
// prompt counts of ask vs auto mode are the bench's (npm run bench -- auto-mode), not a test's.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { RISKY_COMMAND, runScriptedSession } from '../../fixtures/auto-mode-session';
import { startFakeLlm } from '../../fixtures/fake-llm';

const fakePromise = startFakeLlm();
after(async () => (await fakePromise).close());

test('100-step session, auto mode, allow-all reviewer: the risky command and the outside write still ask', async () => {
  const fake = await fakePromise;
  const r = await runScriptedSession(fake, 'auto', { allowAllReviewer: true });
  assert.equal(r.steps, 100);
  assert.ok(r.prompts.includes(RISKY_COMMAND), `the risky command asked: ${JSON.stringify(r.prompts)}`);
  assert.ok(
    r.prompts.some((p) => p.endsWith('notes.md') && !p.startsWith('src')),
    `the outside write asked: ${JSON.stringify(r.prompts)}`,
  );
  assert.equal(r.prompts.length, 2, `only those two: ${JSON.stringify(r.prompts)}`);
  assert.ok(r.reviews > 0, 'routine steps went to the reviewer');
});
