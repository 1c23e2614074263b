// The moment a request's start is recorded in the extension: once Node's HTTP client has written the
// model call to its connection (undici's bodySent channel), or at the cap when nothing is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { whenRequestWritten } from '../../../extension/platform/net/request-written';

test('whenRequestWritten calls back once the request body is written, before the answer is read', async () => {
  let answerRead = false;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const server = createServer((req, res) => {
    req.resume();
    // The answer waits until the test has seen the callback.
    void held.then(() => res.end('{}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    // A cap far away: only the write can call back first.
    const written = new Promise<boolean>((resolve) => whenRequestWritten(() => resolve(answerRead), 60_000));
    const res = fetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', body: '{"model":"m"}' }).then(
      async (r) => {
        await r.text();
        answerRead = true;
      },
    );
    assert.equal(await written, false, 'called back before any answer');
    release();
    await res;
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('whenRequestWritten calls back at the cap when nothing is written, once', async () => {
  let calls = 0;
  await new Promise<void>((resolve) =>
    whenRequestWritten(() => {
      calls++;
      resolve();
    }, 1),
  );
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(calls, 1);
});
