// Opens the connection the first model request will use, while the user reads the view and types: a
// fresh window has none, and the first request otherwise waits for DNS, TCP and TLS (and, on a busy
// extension host, for the turns of the event loop in between) before its first byte goes out. One HEAD
// request to the provider's configured base URL through Node's fetch — the HTTP client and connection
// pool (undici's global dispatcher) the provider SDKs send with — carrying no key, no body and nothing
// from the chat; no redirect is followed. The pool keeps the connection for the request that follows
// while it stays idle less than the pool's keep-alive time (seconds). Only http(s) URLs; bounded in time.
const WARM_TIMEOUT_MS = 10_000;

export async function warmConnection(baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
  url.username = '';
  url.password = '';
  const res = await fetch(url, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(WARM_TIMEOUT_MS) });
  // Read to the end (a HEAD answer has no body), so the connection goes back to the pool.
  await res.arrayBuffer();
}
