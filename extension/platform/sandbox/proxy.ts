// The host half of the box's network: a proxy on a unix socket that only the box can reach. It
// speaks HTTP (CONNECT tunnels and plain absolute-form requests) and SOCKS5 on the same socket (the
// first byte tells them apart), resolves names itself (so the box needs no DNS), lets through only
// hosts on the allow-list, and reports every connection — allowed or refused — to its owner, which
// writes it to the audit log. A refused HTTP client gets a 403 whose body names the rule.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { matchAllowedHost } from '../../core/sandbox/allowed-hosts';
import type { BoxConnection } from '../../core/sandbox/types';

export interface BoxProxyOptions {
  /** A unix socket path (Linux: bound into the box), or 0 for a loopback TCP port (macOS). */
  listen: string | 0;
  allowedHosts: () => readonly string[];
  onConnection(c: BoxConnection): void;
}

const MAX_HEAD = 64 * 1024;

export function refusedBecause(host: string): string {
  return `${host} is not in sextant.sandbox.network.allowedHosts`;
}

export async function startBoxProxy(o: BoxProxyOptions): Promise<Server> {
  const server = createServer((client) => {
    client.once('data', (first: Buffer) => {
      if (first[0] === 0x05) socks5(client, first, o);
      else http(client, first, o);
    });
    client.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    if (o.listen === 0) server.listen(0, '127.0.0.1', () => resolve());
    else server.listen(o.listen, () => resolve());
  });
  return server;
}

/** Checks the allow-list, reports the connection, and opens the upstream socket when allowed. */
function decide(host: string, port: number, o: BoxProxyOptions): string | undefined {
  const entry =
    Number.isInteger(port) && port > 0 && port < 65536 ? matchAllowedHost(o.allowedHosts(), host, port) : undefined;
  o.onConnection({ host, port, allowed: entry !== undefined, rule: entry ?? refusedBecause(host) });
  return entry;
}

function tunnel(client: Socket, host: string, port: number, onOpen: (up: Socket) => void, onFail: () => void): void {
  const up = createConnection({ host, port });
  up.once('connect', () => {
    up.setNoDelay(true);
    onOpen(up);
    client.pipe(up).pipe(client);
  });
  up.once('error', () => {
    onFail();
    client.destroy();
  });
  client.once('close', () => up.destroy());
}

function http(client: Socket, first: Buffer, o: BoxProxyOptions): void {
  let head = first;
  const onHead = () => {
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > MAX_HEAD) client.destroy();
      else
        client.once('data', (more: Buffer) => {
          head = Buffer.concat([head, more]);
          onHead();
        });
      return;
    }
    const text = head.subarray(0, end).toString('latin1');
    const rest = head.subarray(end + 4);
    const [method, target] = text.split('\r\n')[0].split(' ');
    const refuse = (host: string) => {
      const body = `Sextant sandbox: ${refusedBecause(host)}\n`;
      client.end(
        'HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\n' +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    if (method === 'CONNECT') {
      const { host, port } = splitHostPort(target ?? '', 443);
      if (!decide(host, port, o)) return refuse(host);
      tunnel(
        client,
        host,
        port,
        (up) => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (rest.length) up.write(rest);
        },
        () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'),
      );
      return;
    }
    let url: URL;
    try {
      url = new URL(target ?? '');
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    if (url.protocol !== 'http:') return refuse(url.hostname);
    const port = Number(url.port || 80);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!decide(host, port, o)) return refuse(host);
    const lines = text.split('\r\n');
    lines[0] = `${method} ${url.pathname}${url.search} ${lines[0].split(' ')[2] ?? 'HTTP/1.1'}`;
    const rewritten = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), rest]);
    tunnel(
      client,
      host,
      port,
      (up) => up.write(rewritten),
      () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'),
    );
  };
  onHead();
}

function splitHostPort(s: string, fallback: number): { host: string; port: number } {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(s) ?? /^([^:]+):(\d+)$/.exec(s);
  return m ? { host: m[1], port: Number(m[2]) } : { host: s, port: fallback };
}

/** SOCKS5, no authentication, CONNECT only; names are resolved here (socks5h). */
function socks5(client: Socket, first: Buffer, o: BoxProxyOptions): void {
  let buf = first;
  let stage: 'greeting' | 'request' = 'greeting';
  const step = () => {
    if (stage === 'greeting') {
      if (buf.length < 2 || buf.length < 2 + buf[1]) return client.once('data', more);
      buf = buf.subarray(2 + buf[1]);
      client.write(Buffer.from([5, 0]));
      stage = 'request';
    }
    if (buf.length < 5) return client.once('data', more);
    const atyp = buf[3];
    let host: string;
    let at: number;
    if (atyp === 1) {
      if (buf.length < 10) return client.once('data', more);
      host = [...buf.subarray(4, 8)].join('.');
      at = 8;
    } else if (atyp === 3) {
      const n = buf[4];
      if (buf.length < 5 + n + 2) return client.once('data', more);
      host = buf.subarray(5, 5 + n).toString('latin1');
      at = 5 + n;
    } else if (atyp === 4) {
      if (buf.length < 22) return client.once('data', more);
      const b = buf.subarray(4, 20);
      host = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2).toString(16)).join(':');
      at = 20;
    } else {
      client.end(Buffer.from([5, 8, 0, 1, 0, 0, 0, 0, 0, 0]));
      return;
    }
    const port = buf.readUInt16BE(at);
    const rest = buf.subarray(at + 2);
    if (buf[1] !== 1) {
      client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
      return;
    }
    // 0x02: "connection not allowed by ruleset".
    if (!decide(host, port, o)) {
      client.end(Buffer.from([5, 2, 0, 1, 0, 0, 0, 0, 0, 0]));
      return;
    }
    tunnel(
      client,
      host,
      port,
      (up) => {
        client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
        if (rest.length) up.write(rest);
      },
      () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])),
    );
  };
  const more = (b: Buffer) => {
    buf = Buffer.concat([buf, b]);
    step();
  };
  step();
}
