// A `sextant -p` run opens the model's connection while its engine composes (extension/cli/
// warm-first-request.ts): one GET to the provider's base URL, then the request. A server on this
// machine (127.0.0.1) is left alone; the fake listens on this machine's other address to be "remote".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { makeCliHome, runCli } from './cli-harness';

/** An IPv4 address of this machine that is not loopback (none: the remote case cannot be shown here). */
const otherAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

test('-p warms the connection to a remote model server: one GET, then the request', {
  skip: otherAddress ? false : 'no non-loopback IPv4 address on this machine',
}, async () => {
  const fake = await startFakeLlm({ defaultReply: { text: 'Warm.' }, host: otherAddress });
  try {
    const h = makeCliHome(fake);
    const r = await runCli(h, ['-p', 'hi']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Warm.\n');
    assert.equal(fake.connectionWarmUps(), 1);
    assert.equal(fake.requests.filter((q) => q.api === 'openai').length, 1);
  } finally {
    await fake.close();
  }
});

test('-p leaves a model server on this machine alone, and a run without a key warms nothing', async () => {
  const fake = await startFakeLlm({ defaultReply: { text: 'Local.' } });
  try {
    const h = makeCliHome(fake);
    assert.equal((await runCli(h, ['-p', 'hi'])).code, 0);
    assert.equal(fake.connectionWarmUps(), 0);
  } finally {
    await fake.close();
  }
  if (!otherAddress) return;
  const remote = await startFakeLlm({ host: otherAddress });
  try {
    const r = await runCli(makeCliHome(remote), ['-p', 'hi'], { env: { FAKE_CLI_KEY: undefined } });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(remote.connectionWarmUps(), 0);
    assert.equal(remote.requests.length, 0);
  } finally {
    await remote.close();
  }
});
