// Opens the connection the first model request will use, while the user reads the view and types: a
// fresh window has none, and the first request otherwise waits for DNS, TCP and TLS (and, on a busy
// extension host, for the turns of the event loop in between) before its first byte goes out. One GET
// request to the provider's configured base URL through Node's fetch — the HTTP client and connection
// pool (undici's global dispatcher) the provider SDKs send with — carrying no key, no body and nothing
// from the chat; no redirect is followed. Not HEAD: undici closes a connection after every HEAD answer
// (servers may frame those wrongly), so a HEAD left nothing for the request — every first request opened
// its own. The answer (a short 404 or the like) is read to the end, so the connection goes back to the
// pool, which keeps it for the request that follows while it stays idle less than the pool's keep-alive
// time (~4 s; the view's `composing` message warms it again while the user types). Only http(s) URLs;
// bounded in time, and in size: an answer longer than MAX_ANSWER_BYTES is dropped with its connection.
const WARM_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export async function warmConnection(baseUrl: string): Promise<void> {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
  url.username = '';
  url.password = '';
  const res = await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(WARM_TIMEOUT_MS) });
  const reader = res.body?.getReader();
  let read = 0;
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    read += chunk.value.byteLength;
    if (read > MAX_ANSWER_BYTES) return void (await reader?.cancel());
  }
  // The client hands the connection back to the pool once it has parsed the answer's end, a turn after
  // the body's last read: resolved after that, a request sent next finds it there.
  await new Promise((resolve) => setImmediate(resolve));
}
