// The contract each search provider file fulfils: how to build its HTTP request from a query, how
// to read its answer into SearchResult, and how to read its error bodies. The provider files are
// pure (no I/O); http.ts sends the request and the client (client.ts) adds rate limits, retries,
// the circuit breaker and failover around them.
import type { SearchProviderId, SearchResult } from '../types';
import type { SearchErrorCode } from './errors';

/** A query after validation: domains normalised, the result count capped for the provider. */
export interface NormalizedQuery {
  query: string;
  allowedDomains: string[];
  blockedDomains: string[];
  maxResults: number;
  /** Only pages published on or after this day (YYYY-MM-DD), from `recencyDays` and the client's clock. */
  since?: string;
  /** The window's length in days, with `since`. */
  recencyDays?: number;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** What a provider's error body says: its own message and, when the status is not enough, the kind. */
export interface ApiErrorInfo {
  message?: string;
  /** Overrides the classification by status (e.g. Brave answers a bad key with 422). */
  code?: SearchErrorCode;
}

export interface SearchApi {
  id: SearchProviderId;
  /** Shown to people: "Exa", "Brave Search". */
  label: string;
  /** Where requests go without a `sextant.research.endpoints` override. */
  defaultBaseUrl: string;
  /** The environment variable a key may come from. */
  envVar: string;
  /** The most results one request may ask for. */
  maxResults: number;
  /** Client-side spacing between requests, within the provider's documented free-tier rate. */
  minIntervalMs: number;
  /** Where to get a key, for the no-key message. */
  keyUrl: string;
  buildRequest(query: NormalizedQuery, key: string, baseUrl: string): HttpRequest;
  /** Maps a 200 body to results; throws (any error) when the body is not the documented shape. */
  parseResults(body: unknown): SearchResult[];
  parseError(status: number, body: unknown): ApiErrorInfo;
  /** Milliseconds until the next request may go, from rate-limit headers the provider sends. */
  rateLimitWaitMs?(headers: Headers): number | undefined;
}

/** `baseUrl` + `path`, keeping any path prefix the base URL has (a proxy's /brave/…). */
export function joinUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** One line of plain text: tags removed (Brave marks matches with <strong>), entities decoded, capped. */
export function cleanSnippet(text: string | undefined, max = 400): string {
  if (!text) return '';
  const plain = text
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) => {
      const k = e.toLowerCase();
      if (k in ENTITIES) return ENTITIES[k];
      if (k.startsWith('#x')) return String.fromCodePoint(Number.parseInt(k.slice(2), 16));
      if (k.startsWith('#')) return String.fromCodePoint(Number.parseInt(k.slice(1), 10));
      return m;
    })
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1).trimEnd()}…` : plain;
}

/** An ISO 8601 date from what a provider gives, or undefined ("2 days ago" is not a date). */
export function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value.trim())) return undefined;
  const t = Date.parse(value.trim());
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}

/** The URL when it is http(s); results pointing anywhere else are dropped. */
export function httpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const u = new URL(value.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

/** A result from the parts a provider gives; undefined when the URL is unusable. */
export function toResult(
  source: SearchProviderId,
  parts: { title?: unknown; url?: unknown; snippet?: string; publishedAt?: unknown },
): SearchResult | undefined {
  const url = httpUrl(parts.url);
  if (!url) return undefined;
  const title = cleanSnippet(typeof parts.title === 'string' ? parts.title : '', 200) || new URL(url).hostname;
  const publishedAt = isoDate(parts.publishedAt);
  return { title, url, snippet: cleanSnippet(parts.snippet), ...(publishedAt ? { publishedAt } : {}), source };
}

/** A message from a JSON error body: the first string found at one of the given paths. */
export function messageAt(body: unknown, ...paths: string[][]): string | undefined {
  for (const path of paths) {
    let cur: unknown = body;
    for (const k of path) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
    if (typeof cur === 'string' && cur.trim()) return cur.trim().slice(0, 300);
  }
  return undefined;
}
