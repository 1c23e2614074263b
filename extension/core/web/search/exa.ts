// Exa (https://exa.ai/docs/reference/search): POST {base}/search with the key in `x-api-key`.
// Request: {query, type, numResults, includeDomains?, excludeDomains?, startPublishedDate?, contents: {highlights}};
// answer: {requestId, results: [{url, title, publishedDate, author, highlights[], summary?, text?}]}.
// Errors: {requestId, error, tag} with tags such as NO_MORE_CREDITS (402) or INVALID_REQUEST (400).
import * as z from 'zod';
import type { SearchResult } from '../types';
import { joinUrl, messageAt, toResult, type SearchApi } from './api';

const Result = z.object({
  url: z.string(),
  title: z.string().nullish(),
  publishedDate: z.string().nullish(),
  highlights: z.array(z.string()).nullish(),
  summary: z.string().nullish(),
  text: z.string().nullish(),
});
const Response = z.object({ results: z.array(z.unknown()) });

const QUOTA_TAGS = new Set(['NO_MORE_CREDITS', 'API_KEY_BUDGET_EXCEEDED']);

export const exaApi: SearchApi = {
  id: 'exa',
  label: 'Exa',
  defaultBaseUrl: 'https://api.exa.ai',
  envVar: 'EXA_API_KEY',
  maxResults: 100,
  // Exa's default limit is 10 requests per second; stay well inside it.
  minIntervalMs: 200,
  keyUrl: 'https://dashboard.exa.ai/api-keys',
  buildRequest(q, key, baseUrl) {
    return {
      method: 'POST',
      url: joinUrl(baseUrl, '/search'),
      headers: { 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        query: q.query,
        type: 'auto',
        numResults: q.maxResults,
        ...(q.allowedDomains.length ? { includeDomains: q.allowedDomains } : {}),
        ...(q.blockedDomains.length ? { excludeDomains: q.blockedDomains } : {}),
        ...(q.since ? { startPublishedDate: `${q.since}T00:00:00.000Z` } : {}),
        // Highlights are the query-relevant sentences: the snippet, without paying for full text.
        contents: { highlights: true },
      }),
    };
  },
  parseResults(body) {
    const out: SearchResult[] = [];
    for (const item of Response.parse(body).results) {
      const r = Result.safeParse(item);
      if (!r.success) continue;
      const snippet = r.data.highlights?.join(' … ') || r.data.summary || r.data.text || '';
      const result = toResult('exa', { ...r.data, snippet, publishedAt: r.data.publishedDate });
      if (result) out.push(result);
    }
    return out;
  },
  parseError(_status, body) {
    const tag = messageAt(body, ['tag']);
    return {
      message: messageAt(body, ['error'], ['message']),
      ...(tag && QUOTA_TAGS.has(tag) ? { code: 'quota' as const } : {}),
    };
  },
};
