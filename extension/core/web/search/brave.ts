// Brave Search (https://api-dashboard.search.brave.com/api-reference/web/search/get): GET
// {base}/res/v1/web/search?q=…&count=… with the key in `X-Subscription-Token`. The query is at most
// 400 characters and 50 words; count at most 20. Answer: {type: "search", query, web: {results:
// [{title, url, description, page_age?, age?, extra_snippets?}]}} (descriptions mark matches with
// <strong>). Errors: {type: "ErrorResponse", error: {id, status, code, detail}} — a bad key is 422
// SUBSCRIPTION_TOKEN_INVALID. X-RateLimit-Remaining / -Reset say when the next request may go.
// Brave has no domain parameters: filters become `site:` / `-site:` operators while the query stays
// within its limits, and the client filters the results either way.
import * as z from 'zod';
import type { SearchResult } from '../types';
import { joinUrl, messageAt, toResult, type NormalizedQuery, type SearchApi } from './api';

const Result = z.object({
  url: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  page_age: z.string().nullish(),
  extra_snippets: z.array(z.string()).nullish(),
});
const Response = z.object({
  type: z.literal('search'),
  web: z.object({ results: z.array(z.unknown()) }).nullish(),
});

export const BRAVE_MAX_QUERY_CHARS = 400;
export const BRAVE_MAX_QUERY_WORDS = 50;

/** The query with the domain filters as operators, or the bare query when they would not fit. */
export function braveQuery(q: NormalizedQuery): string {
  const ops: string[] = [];
  if (q.allowedDomains.length) ops.push(q.allowedDomains.map((d) => `site:${d}`).join(' OR '));
  for (const d of q.blockedDomains) ops.push(`-site:${d}`);
  const full = [q.query, ...ops].join(' ');
  const words = full.split(/\s+/).filter(Boolean).length;
  return full.length <= BRAVE_MAX_QUERY_CHARS && words <= BRAVE_MAX_QUERY_WORDS ? full : q.query;
}

export const braveApi: SearchApi = {
  id: 'brave',
  label: 'Brave Search',
  defaultBaseUrl: 'https://api.search.brave.com',
  envVar: 'BRAVE_API_KEY',
  maxResults: 20,
  // The free plan allows one request per second.
  minIntervalMs: 1100,
  keyUrl: 'https://api-dashboard.search.brave.com',
  buildRequest(q, key, baseUrl) {
    // With filters, ask for a full page: the client drops what does not match.
    const filtering = q.allowedDomains.length > 0 || q.blockedDomains.length > 0;
    const params = new URLSearchParams({
      q: braveQuery(q),
      count: String(filtering ? this.maxResults : q.maxResults),
      result_filter: 'web',
      // Brave takes an exact window as freshness=YYYY-MM-DDtoYYYY-MM-DD.
      ...(q.since ? { freshness: `${q.since}to${dayAfter(q.since, q.recencyDays ?? 0)}` } : {}),
    });
    return {
      method: 'GET',
      url: `${joinUrl(baseUrl, '/res/v1/web/search')}?${params}`,
      headers: { 'x-subscription-token': key, accept: 'application/json' },
    };
  },
  parseResults(body) {
    const out: SearchResult[] = [];
    for (const item of Response.parse(body).web?.results ?? []) {
      const r = Result.safeParse(item);
      if (!r.success) continue;
      const snippet = [r.data.description, ...(r.data.extra_snippets ?? []).slice(0, 1)].filter(Boolean).join(' … ');
      const result = toResult('brave', { title: r.data.title, url: r.data.url, snippet, publishedAt: r.data.page_age });
      if (result) out.push(result);
    }
    return out;
  },
  parseError(_status, body) {
    const code = messageAt(body, ['error', 'code']);
    return {
      message: messageAt(body, ['error', 'detail'], ['message']),
      ...(code === 'SUBSCRIPTION_TOKEN_INVALID' ? { code: 'auth' as const } : {}),
      ...(code === 'RATE_LIMITED' ? { code: 'rate_limit' as const } : {}),
    };
  },
  rateLimitWaitMs(headers) {
    // "1, 1000" remaining with "1, 1419704" reset: per-second and per-month windows, in seconds.
    const remaining = (headers.get('x-ratelimit-remaining') ?? '').split(',').map((s) => Number(s.trim()));
    const reset = (headers.get('x-ratelimit-reset') ?? '').split(',').map((s) => Number(s.trim()));
    let wait: number | undefined;
    remaining.forEach((left, i) => {
      if (left === 0 && Number.isFinite(reset[i])) wait = Math.max(wait ?? 0, reset[i] * 1000);
    });
    return wait;
  },
};

/** The day `days` after `day` (YYYY-MM-DD): the end of the window, today. */
function dayAfter(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
