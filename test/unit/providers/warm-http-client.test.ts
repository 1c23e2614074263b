// The first request's warm-up: one POST to a throwaway local server, and nothing left open after it
// (a socket kept alive by fetch's pool would hold the extension host's event loop and a port).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { warmHttpClient } from '../../../extension/platform/net/warm-http-client';

const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'TCPServerWrap');

test('warmHttpClient sends one local POST and leaves no server or socket open', async () => {
  const before = sockets().length;
  await warmHttpClient();
  // The server's close and the pool's socket end are asynchronous: wait for the state, not for a time.
  for (let i = 0; i < 1000 && sockets().length > before; i++) await new Promise((r) => setImmediate(r));
  assert.equal(sockets().length, before, `open after the warm-up: ${sockets().join(', ')}`);
});

test('warmHttpClient can run twice (a reloaded runtime warms again)', async () => {
  await warmHttpClient();
  await warmHttpClient();
});
