// Sends one search request and turns every outcome into results or a SearchError with a message a
// person can act on. Redirects are not followed: a custom key header (x-api-key, X-Subscription-
// Token) would go with the request to wherever the redirect points. Bodies are read up to a cap,
// and the key is scrubbed from anything the server says before it reaches a message.
import { networkCode, retryAfterMs } from '../../providers/errors';
import type { SearchResult } from '../types';
import type { NormalizedQuery, SearchApi } from './api';
import { SearchError, type SearchErrorCode } from './errors';

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface CallOptions {
  fetch: FetchLike;
  signal: AbortSignal;
  timeoutMs: number;
  maxResponseBytes: number;
  now: () => number;
}

export interface ApiAnswer {
  results: SearchResult[];
  /** From the provider's rate-limit headers: how long until the next request may go. */
  waitMs?: number;
}

export async function callSearchApi(
  api: SearchApi,
  query: NormalizedQuery,
  key: string,
  baseUrl: string,
  o: CallOptions,
): Promise<ApiAnswer> {
  const req = api.buildRequest(query, key, baseUrl);
  const where = endpointOf(req.url);
  const scrub = (text: string) => (key ? text.split(key).join('[REDACTED]') : text);
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = AbortSignal.any([o.signal, timeout]);
  let res: Response;
  let text: string;
  try {
    res = await o.fetch(req.url, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      redirect: 'manual',
      signal,
    });
    text = await readCapped(res, o.maxResponseBytes, api, where);
  } catch (err) {
    if (err instanceof SearchError) throw err;
    if (o.signal.aborted) throw new SearchError('aborted', `The ${api.label} search was stopped.`, api.id);
    if (timeout.aborted)
      throw new SearchError(
        'timeout',
        `${api.label} (${where}) did not answer within ${Math.round(o.timeoutMs / 1000)} s.`,
        api.id,
      );
    throw new SearchError(
      'unreachable',
      `Could not reach ${api.label} at ${where}: ${scrub(describeNetwork(err))}. Check the network and ` +
        `sextant.research.endpoints.${api.id} if you set one.`,
      api.id,
    );
  }
  if (res.status >= 300 && res.status < 400) {
    throw new SearchError(
      'bad_response',
      `${api.label} (${where}) answered with a redirect (${res.status}) to ${res.headers.get('location') ?? '?'}; ` +
        `Sextant does not follow it with your key. Set sextant.research.endpoints.${api.id} to the final address.`,
      api.id,
      res.status,
    );
  }
  const body = parseJson(text);
  if (res.ok) {
    if (body === undefined)
      throw new SearchError(
        'bad_response',
        `${api.label} (${where}) did not answer with JSON: check sextant.research.endpoints.${api.id}.`,
        api.id,
        res.status,
      );
    let results: SearchResult[];
    try {
      results = api.parseResults(body);
    } catch {
      throw new SearchError(
        'bad_response',
        `${api.label} (${where}) answered in a shape that is not its search API's: check ` +
          `sextant.research.endpoints.${api.id}.`,
        api.id,
        res.status,
      );
    }
    return { results, waitMs: api.rateLimitWaitMs?.(res.headers) };
  }
  const info = api.parseError(res.status, body);
  const code = info.code ?? codeForStatus(res.status);
  const said = info.message ? ` ${api.label} said: ${scrub(info.message)}` : '';
  const wait =
    retryAfterMs(res.headers, o.now()) ?? (code === 'rate_limit' ? api.rateLimitWaitMs?.(res.headers) : undefined);
  throw new SearchError(code, `${describeStatus(api, code, res.status, where, wait)}${said}`, api.id, res.status, wait);
}

function codeForStatus(status: number): SearchErrorCode {
  if (status === 401 || status === 403) return 'auth';
  if (status === 402) return 'quota';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  return 'bad_request';
}

function describeStatus(api: SearchApi, code: SearchErrorCode, status: number, where: string, wait?: number): string {
  switch (code) {
    case 'auth':
      return (
        `${api.label} refused the API key (${status}). Set a valid key with "Sextant: Set Search API Key" or the ` +
        `environment variable ${api.envVar}.`
      );
    case 'quota':
      return `${api.label} says the plan's credits or usage limit are used up (${status}).`;
    case 'rate_limit':
      return `${api.label} is rate-limiting requests (${status}).${
        wait !== undefined && wait > 0 ? ` It asks to wait ${Math.ceil(wait / 1000)} s.` : ''
      }`;
    case 'server':
      return `${api.label} had a server error (${status}).`;
    case 'timeout':
      return `${api.label} timed out (${status}).`;
    default:
      return status === 404 || status === 405
        ? `${api.label} answered ${status} at ${where}: check sextant.research.endpoints.${api.id}.`
        : `${api.label} rejected the request (${status}).`;
  }
}

/** Scheme, host and path of a request URL — never its query (Brave's carries the search terms). */
function endpointOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

function parseJson(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

async function readCapped(res: Response, max: number, api: SearchApi, where: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new SearchError(
        'bad_response',
        `${api.label} (${where}) sent more than ${Math.round(max / 1024)} KB; Sextant stopped reading.`,
        api.id,
        res.status,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function describeNetwork(err: unknown): string {
  const code = networkCode(err);
  if (code) return code;
  let cur: unknown = err;
  let innermost: string | undefined;
  for (let depth = 0; depth < 6 && cur instanceof Error; depth++) {
    if (cur.message) innermost = cur.message;
    cur = (cur as { cause?: unknown }).cause;
  }
  return innermost && innermost !== 'fetch failed'
    ? `the connection failed (${innermost.slice(0, 120)})`
    : 'the connection failed';
}
