// The fetch pipeline: URL → guard (scheme, address) → DNS-pinned request → redirects (each re-checked,
// at most 5) → body (10 MB cap, 30 s for the whole fetch) → by content type: HTML through the lazily
// loaded readability bundle to Markdown, PDFs through the PDF text extractor, text as it is → the
// Markdown capped → a FetchedPage, cached for 15 minutes.
import { extractPdfPages } from '../../tools/util/pdf';
import type { FetchedPage } from '../types';
import { classifyBody, decodeBody, type Classified } from './content-kind';
import { FetchError } from './fetch-error';
import type { HtmlConverter, LoadHtmlConverter } from './html-converter';
import { capMarkdown, MAX_MARKDOWN_CHARS } from './markdown-cap';
import { CACHE_TTL_MS, cacheKey, PageCache } from './page-cache';
import { pinnedRequest, type Transport } from './pinned-request';
import { readBody } from './read-body';
import { followRedirects } from './redirects';
import { parseFetchUrl, systemResolver, vetTarget, type Resolver } from './target-guard';

export const MAX_PAGE_BYTES = 10 * 1024 * 1024;
export const FETCH_TIMEOUT_MS = 30_000;
export const MAX_REDIRECTS = 5;

export interface PageFetcherOptions {
  /** sextant.web.allowPrivateHosts, read on every fetch so a settings change applies at once. */
  allowPrivateHosts(): readonly string[];
  /** Loads the HTML → Markdown bundle (once, on the first HTML page). */
  loadHtmlConverter: LoadHtmlConverter;
  resolve?: Resolver;
  transport?: Transport;
  now?(): number;
  timeoutMs?: number;
  maxBytes?: number;
  maxMarkdownChars?: number;
  maxRedirects?: number;
  cacheTtlMs?: number;
}

export interface FetchOutcome {
  page: FetchedPage;
  /** True when the page came from the 15-minute cache. */
  fromCache: boolean;
}

export interface PageFetcher {
  /** Throws FetchError (its message is written for the model and the user). */
  fetch(url: string, opts?: { signal?: AbortSignal }): Promise<FetchOutcome>;
}

const HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; Sextant/0.1; VS Code research assistant)',
  accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5',
  'accept-language': 'en;q=0.9,*;q=0.5',
  'accept-encoding': 'gzip, deflate, br',
};

function statusHint(status: number): string {
  if (status === 404 || status === 410) return ' The page does not exist (check the URL, or search for it).';
  if (status === 401 || status === 403)
    return ' The site refuses automated access or needs a login; try another source.';
  if (status === 429) return ' The site is rate-limiting; try another source or come back later.';
  if (status >= 500) return ' The server failed; try again later or use another source.';
  return '';
}

/** A short name for a non-HTML document: its file name, else its host. */
function fileTitle(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (!last) return url.host;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const FENCED: Record<string, string> = {
  'application/json': 'json',
  'application/ld+json': 'json',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'text/csv': 'csv',
  'application/javascript': 'js',
  'text/javascript': 'js',
  'application/x-yaml': 'yaml',
  'application/yaml': 'yaml',
};

export function createPageFetcher(opts: PageFetcherOptions): PageFetcher {
  const resolve = opts.resolve ?? systemResolver;
  const transport = opts.transport ?? pinnedRequest;
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? FETCH_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? MAX_PAGE_BYTES;
  const maxChars = opts.maxMarkdownChars ?? MAX_MARKDOWN_CHARS;
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  const cache = new PageCache({ ttlMs: opts.cacheTtlMs ?? CACHE_TTL_MS, now });
  let converter: Promise<HtmlConverter> | undefined;
  const loadConverter = () => {
    converter ??= opts.loadHtmlConverter().catch((err: unknown) => {
      converter = undefined;
      throw err;
    });
    return converter;
  };

  async function toPage(asked: URL, finalUrl: URL, c: Classified, bytes: Buffer): Promise<FetchedPage> {
    const base = { url: asked.href, finalUrl: finalUrl.href, contentType: c.mediaType, fetchedAt: now() };
    let title: string;
    let markdown: string;
    let text: string;
    if (c.kind === 'pdf') {
      let pages: string[];
      try {
        pages = extractPdfPages(bytes);
      } catch (e) {
        throw new FetchError('empty', `${finalUrl.href} is a PDF that could not be read: ${(e as Error).message}.`);
      }
      text = pages.join('\n\n').trim();
      const first =
        text
          .split('\n')
          .find((l) => l.trim())
          ?.trim() ?? '';
      title = first && first.length <= 150 ? first : fileTitle(finalUrl);
      markdown = pages.map((p, i) => `[Page ${i + 1}]\n\n${p.trim()}`).join('\n\n');
    } else if (c.kind === 'html') {
      const html = decodeBody(bytes, c);
      const convert = await loadConverter();
      try {
        ({ title, markdown, text } = await convert.htmlToMarkdown(html, finalUrl.href));
      } catch (e) {
        throw new FetchError('empty', `${finalUrl.href} could not be read as a web page: ${(e as Error).message}.`);
      }
    } else {
      text = decodeBody(bytes, c);
      title = fileTitle(finalUrl);
      const lang = FENCED[c.mediaType] ?? (c.mediaType.endsWith('+json') ? 'json' : undefined);
      let body = text;
      if (lang === 'json') {
        try {
          body = JSON.stringify(JSON.parse(text), null, 2);
        } catch {
          /* not valid JSON after all: shown as sent */
        }
      }
      markdown = lang ? `\`\`\`${lang}\n${body}\n\`\`\`` : text;
    }
    if (!text.trim()) {
      const why = c.kind === 'html' ? ' (it may be built by scripts in the browser)' : '';
      throw new FetchError('empty', `${finalUrl.href} has no readable text${why}; try another source.`);
    }
    const capped = capMarkdown(markdown, maxChars);
    return { ...base, title, markdown: capped.markdown, text, truncated: capped.truncated };
  }

  return {
    async fetch(raw, { signal } = {}) {
      const asked = parseFetchUrl(raw);
      const key = cacheKey(asked);
      const cached = cache.get(key);
      if (cached) return { page: cached, fromCache: true };
      // One deadline for the whole fetch — connection, redirects and body — and the caller's abort.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), timeoutMs);
      const onAbort = () => deadline.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) deadline.abort();
      try {
        const { response, finalUrl } = await followRedirects(asked, {
          vet: (u) => vetTarget(u, { resolve, allowPrivateHosts: opts.allowPrivateHosts() }),
          transport,
          maxRedirects,
          signal: deadline.signal,
          headers: HEADERS,
        });
        if (response.status < 200 || response.status >= 300) {
          response.body.destroy();
          const why = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
          throw new FetchError('http', `${finalUrl.href} answered ${why}.${statusHint(response.status)}`);
        }
        const bytes = await readBody(response, finalUrl, maxBytes, deadline.signal);
        const c = classifyBody(response.headers['content-type'], bytes, finalUrl);
        const page = await toPage(asked, finalUrl, c, bytes);
        cache.set(key, page);
        return { page, fromCache: false };
      } catch (e) {
        if (deadline.signal.aborted && !signal?.aborted)
          throw new FetchError(
            'timeout',
            `${asked.href} did not finish loading within ${Math.round(timeoutMs / 100) / 10} s; try another source.`,
          );
        if (signal?.aborted) throw new FetchError('aborted', 'The fetch was stopped.');
        throw e;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
