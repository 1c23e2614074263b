// A model request's own path — the provider SDK building the request (messages, tools, headers) and
// Node's fetch writing a POST with a body on a new connection — is cold in a fresh extension host: the
// first time, V8 compiles each function on it and undici loads its body path. Measured in code-server,
// the SDK's part of the first request (its call → the body on the wire) took 30–40 ms of the ~55 ms
// Sextant spent between the message and the wire. This runs that path once, ahead, with a throwaway
// client of the same kind (ProviderRegistry.warm's `rehearsal`: a placeholder key, none of the config's
// headers) against a throwaway server on 127.0.0.1 that refuses every request (400, so the SDK does not
// retry). Nothing leaves the machine, no key is used and nothing is kept open.
import type { Provider } from '../../core/providers/types';
import { withLoopbackServer } from './loopback-server';

/** Bounded: a rehearsal never holds anything for long. */
const REHEARSAL_TIMEOUT_MS = 10_000;

export async function rehearseModelRequest(rehearsal: (baseUrl: string) => Provider, model: string): Promise<void> {
  await withLoopbackServer(
    (res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"type":"invalid_request_error","message":"warm-up"}}');
    },
    async (base) => {
      const provider = rehearsal(`${base}/v1`);
      const request = {
        model,
        system: 'warm-up',
        messages: [{ role: 'user' as const, content: 'warm-up' }],
        tools: [{ name: 'warm_up', description: 'warm-up', inputSchema: { type: 'object', properties: {} } }],
      };
      try {
        for await (const _ of provider.stream(request, AbortSignal.timeout(REHEARSAL_TIMEOUT_MS))) {
          // The server refuses: nothing comes.
        }
      } catch {
        // The refusal is the expected end.
      }
    },
  );
}
