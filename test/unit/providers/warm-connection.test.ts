// The warm-up's connection (platform/net/warm-connection.ts) is the one the request then uses: after it,
// a POST through the same fetch pool opens no new connection. (A HEAD, as before, left none: undici
// closes the connection after every HEAD answer.) Also: no key, no body, nothing followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { warmConnection } from '../../../extension/platform/net/warm-connection';

test('the warmed connection carries the next request: no new connection for it', async () => {
  const seen: Array<{ method: string; url: string; auth: string | undefined; bodyBytes: number }> = [];
  const server = createServer((req, res) => {
    let bodyBytes = 0;
    req.on('data', (c: Buffer) => (bodyBytes += c.length));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization, bodyBytes });
      // As a provider answers its base URL: a short 404 (and a redirect is never followed).
      res.writeHead(req.method === 'POST' ? 200 : 404, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"not found"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  const baseUrl = `http://127.0.0.1:${address.port}/v1`;
  let connects = 0;
  const onConnect = () => void connects++;
  subscribe('undici:client:beforeConnect', onConnect);
  try {
    await warmConnection(baseUrl);
    assert.equal(connects, 1);
    const res = await fetch(`${baseUrl}/chat/completions`, { method: 'POST', body: '{"model":"m"}' });
    await res.arrayBuffer();
    assert.equal(connects, 1, 'the request went out on the warmed connection');
    assert.deepEqual(seen[0], { method: 'GET', url: '/v1', auth: undefined, bodyBytes: 0 });
  } finally {
    unsubscribe('undici:client:beforeConnect', onConnect);
    server.closeAllConnections();
    server.close();
  }
});
