// Node's fetch (undici) loads its HTTP client — connection pool, the llhttp parser (WebAssembly) and
// the request-body path — on the first HTTP request, not on the first fetch: a `data:` URL warms only
// the fetch front. Measured in the extension host, the first POST to the model's server took 25–50 ms
// longer than the second. This sends one small POST to a throwaway server on 127.0.0.1, so the first
// real request finds all of that loaded. Nothing leaves the machine and nothing is kept open.
import { createServer } from 'node:http';

export async function warmHttpClient(): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{}'));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (!address || typeof address === 'string') return;
    const res = await fetch(`http://127.0.0.1:${address.port}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await res.arrayBuffer();
  } finally {
    // The pool keeps the connection alive: end it here, so no socket outlives the warm-up.
    server.closeAllConnections();
    server.close();
  }
}
