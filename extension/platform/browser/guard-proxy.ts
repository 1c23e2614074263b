// The only way out for the browser: a small HTTP proxy on 127.0.0.1 that the browser is launched
// with (`--proxy-server`, loopback not bypassed). Every connection — the page, its subresources,
// each redirect hop, fetch/XHR, WebSockets (tunnelled with CONNECT) — reaches it as a host and port;
// the guard from core judges it, and the proxy connects to the address the guard vetted, never to a
// name the browser resolved itself, so DNS rebinding cannot switch it. Refusals are reported.
// Why a proxy rather than Playwright's request routing: routing sees neither WebSockets nor service
// workers nor the address a name finally resolves to, and it pauses every request on the protocol.
import { createServer, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { ConnectionGuard, RefusedConnection } from '../../core/tools/browser/port';

export interface GuardProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

/** Headers that belong to one hop and must not be forwarded. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

function splitHostPort(authority: string): { host: string; port: number } | undefined {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(authority) ?? /^([^:]+):(\d+)$/.exec(authority);
  return m ? { host: m[1], port: Number(m[2]) } : undefined;
}

export async function startGuardProxy(o: {
  guard: ConnectionGuard;
  onRefused(r: RefusedConnection): void;
}): Promise<GuardProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => void forward(req, res, o));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => void tunnel(req, client, head, o));
  server.on('clientError', (_e, s: Socket) => s.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** CONNECT host:port — HTTPS and WebSockets. */
async function tunnel(
  req: IncomingMessage,
  client: Socket,
  head: Buffer,
  o: Parameters<typeof startGuardProxy>[0],
): Promise<void> {
  client.on('error', () => client.destroy());
  const target = splitHostPort(req.url ?? '');
  if (!target) {
    client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    return;
  }
  const verdict = await o.guard({ ...target, scheme: target.port === 80 ? 'http' : 'https' });
  if (!verdict.ok) {
    if (!verdict.quiet) o.onRefused({ target: req.url ?? '', reason: verdict.reason });
    client.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n\r\nSextant: ${verdict.reason}\n`);
    return;
  }
  const up = connect({ host: verdict.address, port: target.port });
  up.once('connect', () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) up.write(head);
    client.pipe(up).pipe(client);
  });
  up.on('error', () => {
    if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  client.once('close', () => up.destroy());
}

/** A plain-HTTP request in absolute form (`GET http://host/path`). */
async function forward(req: IncomingMessage, res: ServerResponse, o: Parameters<typeof startGuardProxy>[0]) {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
    if (url.protocol !== 'http:') throw new Error('not http');
  } catch {
    res.writeHead(400).end();
    return;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || 80;
  const verdict = await o.guard({ host, port, scheme: 'http' });
  if (!verdict.ok) {
    if (!verdict.quiet) o.onRefused({ target: `${url.origin}${url.pathname}`, reason: verdict.reason });
    res.writeHead(403, { 'content-type': 'text/plain' }).end(`Sextant: ${verdict.reason}\n`);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) headers[k] = v;
  const up = httpRequest({
    host: verdict.address,
    port,
    method: req.method,
    path: `${url.pathname}${url.search}`,
    headers,
    agent: false,
    setHost: false,
  });
  up.on('response', (r) => {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) out[k] = v;
    res.writeHead(r.statusCode ?? 502, r.statusMessage, out);
    r.pipe(res);
  });
  up.on('error', () => {
    if (!res.headersSent) res.writeHead(502).end();
    else res.destroy();
  });
  res.once('close', () => up.destroy());
  req.pipe(up);
}
