// web_search: searches the web through the providers the user configured (Exa, Tavily, Brave,
// Firecrawl — core/research/search), with optional allowed / blocked domains and a provider to ask
// first. Results are title, URL, date and snippet: enough to decide what to fetch, never the page.
// Kind `network`: the query leaves the machine, so in Agent mode it asks per the permission policy.
import * as z from 'zod';
import type { WebSearchOutcome } from '../ports';
import { SEARCH_APIS } from '../research/search/catalog';
import { isSearchError } from '../research/search/errors';
import { noSearchKeyMessage } from '../research/search/keys';
import { SEARCH_PROVIDER_IDS } from '../research/types';
import { defineTool, errorResult } from './types';

const input = z.object({
  query: z
    .string()
    .min(2)
    .max(400)
    .describe('The search query: keywords or a short question, as you would type it into a search engine.'),
  allowed_domains: z
    .array(z.string())
    .max(20)
    .optional()
    .describe('Only return results from these domains and their subdomains, e.g. ["developer.mozilla.org"].'),
  blocked_domains: z
    .array(z.string())
    .max(20)
    .optional()
    .describe('Never return results from these domains or their subdomains.'),
  provider: z
    .enum(['exa', 'tavily', 'brave', 'firecrawl'])
    .optional()
    .describe(
      'A provider to ask first (the others are tried if it fails): exa for conceptual "how does X work" ' +
        'queries, tavily for factual and recent information, brave for general web and news, firecrawl for ' +
        "general web. Leave it out to use the user's order.",
    ),
});

export type WebSearchInput = z.infer<typeof input>;

/** The numbered list the model reads. */
export function formatSearchResults(query: string, outcome: WebSearchOutcome): string {
  const label = SEARCH_APIS[outcome.provider].label;
  const lines: string[] = [];
  if (outcome.results.length === 0) lines.push(`${label} found no results for "${query}".`);
  else lines.push(`${label} results for "${query}":`);
  outcome.results.forEach((r, i) => {
    lines.push(`${i + 1}. ${r.title}`, `   ${r.url}`);
    const meta = [r.publishedAt ? `published ${r.publishedAt.slice(0, 10)}` : '', r.snippet].filter(Boolean);
    if (meta.length) lines.push(`   ${meta.join(' — ')}`);
  });
  for (const s of outcome.skipped) lines.push(`(${SEARCH_APIS[s.provider].label} was not used: ${s.reason})`);
  if (outcome.results.length) lines.push("Snippets are the providers' extracts; fetch a page before relying on it.");
  return lines.join('\n');
}

export const webSearchTool = defineTool({
  name: 'web_search',
  kind: 'network',
  permission: { subject: 'text', text: (i) => i.query },
  modes: ['agent'],
  description: [
    'Searches the web and returns a numbered list of results (title, URL, publication date when known, snippet).',
    'Use it for anything recent or outside your knowledge, and to find sources you then read with web_fetch.',
    'One focused query per call; narrow with allowed_domains (e.g. official docs) or exclude noise with',
    'blocked_domains. Snippets can be outdated or out of context: cite pages you fetched, not snippets.',
  ].join(' '),
  input,
  subject: (i) => i.query,
  async describeForApproval(i) {
    const parts = [`Sends this query to a web search provider: "${i.query}"`];
    if (i.allowed_domains?.length) parts.push(`only from: ${i.allowed_domains.join(', ')}`);
    if (i.blocked_domains?.length) parts.push(`never from: ${i.blocked_domains.join(', ')}`);
    if (i.provider) parts.push(`asking ${SEARCH_APIS[i.provider].label} first`);
    return parts.join('\n');
  },
  async execute(i, ctx) {
    const port = ctx.ports.webSearch;
    if (!port) return errorResult(`web_search is not available here. ${noSearchKeyMessage(SEARCH_PROVIDER_IDS)}`);
    let outcome: WebSearchOutcome;
    try {
      outcome = await port.search(
        {
          query: i.query,
          ...(i.allowed_domains ? { allowedDomains: i.allowed_domains } : {}),
          ...(i.blocked_domains ? { blockedDomains: i.blocked_domains } : {}),
          ...(i.provider ? { provider: i.provider } : {}),
        },
        ctx.signal,
      );
    } catch (err) {
      if (isSearchError(err)) return errorResult(err.message);
      throw err;
    }
    const text = formatSearchResults(i.query, outcome);
    const label = SEARCH_APIS[outcome.provider].label;
    const summary = `${outcome.results.length} result${outcome.results.length === 1 ? '' : 's'} from ${label}`;
    return { forModel: text, forUi: `${summary}\n${text}`, isError: false };
  },
});
