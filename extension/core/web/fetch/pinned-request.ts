// One HTTP(S) GET to an address chosen in advance. The host name stays in the URL (so the Host
// header, SNI and the certificate check use it), but the socket connects to the vetted address:
// Node's `lookup` hook answers with it instead of asking DNS again. Without this, a DNS server could
// answer a public address to the guard and a private one to the connection (DNS rebinding).
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { FetchError } from './fetch-error';
import type { VettedTarget } from './target-guard';

export interface PinnedResponse {
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** The body stream; the caller reads it (read-body.ts) or destroys it. */
  body: http.IncomingMessage;
}

export interface RequestOptions {
  signal: AbortSignal;
  headers: Record<string, string>;
}

/** Sends one request for a vetted target (injectable so tests can watch where connections go). */
export type Transport = (target: VettedTarget, opts: RequestOptions) => Promise<PinnedResponse>;

/** A `lookup` that always answers the vetted address, in whichever form Node asks for. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    const cb = callback as (err: NodeJS.ErrnoException | null, address: unknown, family?: number) => void;
    if ((options as { all?: boolean }).all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  };
}

export const pinnedRequest: Transport = (target, opts) =>
  new Promise<PinnedResponse>((resolve, reject) => {
    const { url } = target;
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(
      {
        protocol: url.protocol,
        hostname: target.host,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: opts.headers,
        lookup: pinnedLookup(target.address, target.family),
        // A fresh connection per request: a pooled socket could have been opened for another address.
        agent: false,
        signal: opts.signal,
      },
      (res) =>
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: res.headers, body: res }),
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (opts.signal.aborted) return reject(new FetchError('aborted', 'The fetch was stopped.'));
      const code = err.code ? ` (${err.code})` : '';
      reject(new FetchError('network', `Could not reach ${url.host}${code}: ${err.message}`));
    });
    req.end();
  });
