// Tavily (https://docs.tavily.com/api-reference/endpoint/search): POST {base}/search with
// `Authorization: Bearer <key>`. Request: {query, max_results (≤ 20), search_depth, topic,
// include_domains?, exclude_domains?, include_answer, include_raw_content}; answer: {query, results:
// [{title, url, content, score, published_date?}], response_time, request_id}. Errors: {detail:
// {error}}; 432 and 433 mean the plan's or the pay-as-you-go limit is used up.
import * as z from 'zod';
import type { SearchResult } from '../types';
import { joinUrl, messageAt, toResult, type SearchApi } from './api';

const Result = z.object({
  url: z.string(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  published_date: z.string().nullish(),
});
const Response = z.object({ results: z.array(z.unknown()) });

export const tavilyApi: SearchApi = {
  id: 'tavily',
  label: 'Tavily',
  defaultBaseUrl: 'https://api.tavily.com',
  envVar: 'TAVILY_API_KEY',
  maxResults: 20,
  // The development plan allows 100 requests a minute.
  minIntervalMs: 600,
  keyUrl: 'https://app.tavily.com',
  buildRequest(q, key, baseUrl) {
    return {
      method: 'POST',
      url: joinUrl(baseUrl, '/search'),
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: q.query,
        max_results: q.maxResults,
        search_depth: 'basic',
        topic: 'general',
        include_answer: false,
        include_raw_content: false,
        ...(q.allowedDomains.length ? { include_domains: q.allowedDomains } : {}),
        ...(q.blockedDomains.length ? { exclude_domains: q.blockedDomains } : {}),
        // Tavily's window is coarse (day, week, month, year): the smallest that covers ours; the client
        // then drops dated results older than the exact day.
        ...(q.recencyDays && tavilyRange(q.recencyDays) ? { time_range: tavilyRange(q.recencyDays) } : {}),
      }),
    };
  },
  parseResults(body) {
    const out: SearchResult[] = [];
    for (const item of Response.parse(body).results) {
      const r = Result.safeParse(item);
      if (!r.success) continue;
      const result = toResult('tavily', {
        title: r.data.title,
        url: r.data.url,
        snippet: r.data.content ?? '',
        publishedAt: r.data.published_date,
      });
      if (result) out.push(result);
    }
    return out;
  },
  parseError(status, body) {
    return {
      message: messageAt(body, ['detail', 'error'], ['detail'], ['error'], ['message']),
      ...(status === 432 || status === 433 ? { code: 'quota' as const } : {}),
    };
  },
};

/** The smallest Tavily time_range that covers a window of `days` (none past a year: the client filters). */
export function tavilyRange(days: number): 'day' | 'week' | 'month' | 'year' | undefined {
  if (days <= 1) return 'day';
  if (days <= 7) return 'week';
  if (days <= 31) return 'month';
  return days <= 366 ? 'year' : undefined;
}
