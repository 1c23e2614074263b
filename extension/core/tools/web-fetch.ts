// web_fetch: reads one web page through the fetch pipeline (core/research/fetch) and has a fast model
// answer the caller's prompt from it, recording the page as a numbered source the report may cite.
// Built by a factory because it needs the pipeline and a model; the runtime adds it to Agent mode
// (where, being a network tool, it asks per the permission rules) and to Research mode.
import * as z from 'zod';
import { FetchError } from '../research/fetch/fetch-error';
import type { PageFetcher } from '../research/fetch/page-fetcher';
import type { PageAnswerer } from '../research/page-answer';
import { sourcesOf } from '../research/sources';
import type { FetchedPage } from '../research/types';
import { defineTool, type ToolDefinition, errorResult } from './types';

export interface WebFetchDeps {
  fetcher: PageFetcher;
  answerer: PageAnswerer;
}

/** How much of the page goes back to the model when the fast model could not answer. */
const FALLBACK_CHARS = 20_000;

const input = z.object({
  url: z.string().min(1).max(4000).describe('The page to read: a full http:// or https:// URL.'),
  prompt: z
    .string()
    .min(1)
    .max(4000)
    .describe('What to find out from the page, e.g. "What does it say about X? Quote the figures."'),
});
type Input = z.infer<typeof input>;

function header(n: number, page: FetchedPage, fromCache: boolean): string {
  const lines = [`Source [${n}]: ${page.title}`, `URL: ${page.finalUrl}`];
  if (page.finalUrl !== page.url) lines.push(`(redirected from ${page.url})`);
  if (fromCache) lines.push('(from the 15-minute page cache)');
  if (page.truncated) lines.push('(the page was long: only its beginning was read)');
  return lines.join('\n');
}

/** Everything about web_fetch but its services: what the modes and the permission policy read. */
export const webFetchDeclaration = {
  name: 'web_fetch',
  kind: 'network',
  permission: { subject: 'url', text: (i: Input) => i.url },
  modes: ['agent'],
  description: [
    'Fetches a web page (http or https) and answers `prompt` from its content: the readable part of the page',
    'is converted to Markdown and a fast model answers from it, so write the prompt as a precise question or',
    'an extraction request. PDFs and plain-text pages work too. The result names the page as Source [n]; cite',
    'it as [n]. Private, local and internal network addresses are refused; pages are cached for 15 minutes.',
    'Find URLs with web_search or take them from the user or earlier results — do not guess URLs.',
  ].join(' '),
  input,
  subject: (i: Input) => i.url,
} satisfies Omit<ToolDefinition<typeof input>, 'execute'>;

export function createWebFetchTool(deps: WebFetchDeps) {
  return defineTool({
    ...webFetchDeclaration,
    async describeForApproval(i) {
      return `Fetch ${i.url}\nand ask about it: ${i.prompt}`;
    },
    async execute(i, ctx) {
      ctx.progress(`Fetching ${i.url}…\n`);
      let outcome: Awaited<ReturnType<PageFetcher['fetch']>>;
      try {
        outcome = await deps.fetcher.fetch(i.url, { signal: ctx.signal });
      } catch (e) {
        if (e instanceof FetchError) return errorResult(e.message);
        throw e;
      }
      const { page, fromCache } = outcome;
      const source = sourcesOf(ctx.session).add(page);
      ctx.progress(`Read "${page.title}" (${page.markdown.length.toLocaleString('en-US')} characters); reading it…\n`);
      const head = header(source.n, page, fromCache);
      try {
        const answer = await deps.answerer.answer({ prompt: i.prompt, page }, ctx.signal);
        const text = answer.text || '(The model gave no answer for this page.)';
        const spent = answer.spent ? { spent: answer.spent } : {};
        return { forModel: `${head}\n\n${text}`, forUi: `${head}\n\n${text}`, isError: false, ...spent };
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        // The page was read; without the fast model the caller still gets its beginning to work from.
        const why = e instanceof Error ? e.message : String(e);
        const excerpt =
          page.markdown.length > FALLBACK_CHARS
            ? `${page.markdown.slice(0, FALLBACK_CHARS)}\n\n[… cut]`
            : page.markdown;
        const note = `(The model that answers from pages failed: ${why} Here is the page's text instead.)`;
        return {
          forModel: `${head}\n${note}\n\n${excerpt}`,
          forUi: `${head}\n${note}`,
          isError: false,
        };
      }
    },
  });
}
