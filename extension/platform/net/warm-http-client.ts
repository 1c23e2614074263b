// Node's fetch (undici) loads its HTTP client — connection pool, the llhttp parser (WebAssembly) and
// the request-body path — on the first HTTP request, not on the first fetch: a `data:` URL warms only
// the fetch front. Measured in the extension host, the first POST to the model's server took 25–50 ms
// longer than the second. This sends one small POST to a throwaway server on 127.0.0.1, so the first
// real request finds all of that loaded. Nothing leaves the machine and nothing is kept open.
import { withLoopbackServer } from './loopback-server';

export async function warmHttpClient(): Promise<void> {
  await withLoopbackServer(
    (res) => res.end('{}'),
    async (base) => {
      const res = await fetch(`${base}/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      await res.arrayBuffer();
    },
  );
}
