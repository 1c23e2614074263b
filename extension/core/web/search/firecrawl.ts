// Firecrawl (https://docs.firecrawl.dev/api-reference/endpoint/search): POST {base}/v2/search with
// `Authorization: Bearer <key>`. Request: {query, limit (≤ 100), sources, includeDomains? |
// excludeDomains?} — the two domain lists cannot both be sent (400), so with both the allowed list
// goes and the client drops blocked hosts itself. Answer: {success: true, data: {web: [{url, title,
// description, position}]}}. Errors: {success: false, error}; 402 means credits are used up.
import * as z from 'zod';
import type { SearchResult } from '../types';
import { joinUrl, messageAt, toResult, type SearchApi } from './api';

const Result = z.object({
  url: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
});
const Response = z.object({
  success: z.literal(true),
  data: z.object({ web: z.array(z.unknown()).nullish() }),
});

export const firecrawlApi: SearchApi = {
  id: 'firecrawl',
  label: 'Firecrawl',
  defaultBaseUrl: 'https://api.firecrawl.dev',
  envVar: 'FIRECRAWL_API_KEY',
  maxResults: 100,
  // The free plan allows a handful of searches a minute; paid plans far more. The server's
  // retry-after (honoured by the client) covers the rest.
  minIntervalMs: 1000,
  keyUrl: 'https://www.firecrawl.dev/app/api-keys',
  buildRequest(q, key, baseUrl) {
    const domains = q.allowedDomains.length
      ? { includeDomains: q.allowedDomains }
      : q.blockedDomains.length
        ? { excludeDomains: q.blockedDomains }
        : {};
    return {
      method: 'POST',
      url: joinUrl(baseUrl, '/v2/search'),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: q.query,
        limit: q.maxResults,
        sources: ['web'],
        ...domains,
        // Google's custom date range through Firecrawl's tbs: cdr:1,cd_min:M/D/YYYY.
        ...(q.since ? { tbs: `cdr:1,cd_min:${usDate(q.since)}` } : {}),
      }),
    };
  },
  parseResults(body) {
    const out: SearchResult[] = [];
    for (const item of Response.parse(body).data.web ?? []) {
      const r = Result.safeParse(item);
      if (!r.success) continue;
      const result = toResult('firecrawl', { title: r.data.title, url: r.data.url, snippet: r.data.description ?? '' });
      if (result) out.push(result);
    }
    return out;
  },
  parseError(status, body) {
    return {
      message: messageAt(body, ['error'], ['message']),
      ...(status === 402 ? { code: 'quota' as const } : {}),
    };
  },
};

/** YYYY-MM-DD as M/D/YYYY (the form Google's cd_min takes). */
function usDate(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return `${m}/${d}/${y}`;
}
