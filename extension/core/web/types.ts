// The shapes the web part's users agree on: what a search returns, what a fetch returns, and a source
// the report may cite. Search providers and the fetch pipeline live under core/web (shared by the
// web_search / web_fetch tools and Research mode); the loop and the citation checker under core/research.

export type SearchProviderId = 'exa' | 'tavily' | 'brave' | 'firecrawl';

export const SEARCH_PROVIDER_IDS: readonly SearchProviderId[] = ['exa', 'tavily', 'brave', 'firecrawl'];

/** One search hit, whatever provider found it. */
export interface SearchResult {
  title: string;
  url: string;
  /** A short extract from the page as the provider gives it (may be empty). */
  snippet: string;
  /** ISO 8601 date when the provider knows it. */
  publishedAt?: string;
  source: SearchProviderId;
}

export interface SearchQuery {
  query: string;
  /** Only results from these hosts (and their subdomains). */
  allowedDomains?: string[];
  /** Never results from these hosts (and their subdomains). */
  blockedDomains?: string[];
  /** At most this many results (providers cap it further). */
  maxResults?: number;
  /** Only pages published in the last N days (providers that take a date get it; the rest are filtered after). */
  recencyDays?: number;
}

/** A page the fetch pipeline read: readable Markdown plus what the citation checker needs. */
export interface FetchedPage {
  /** The URL asked for. */
  url: string;
  /** The URL the content came from after redirects. */
  finalUrl: string;
  title: string;
  /** Readable content as Markdown, capped (see `truncated`). */
  markdown: string;
  /** Plain text of the readable content (what claims are checked against). */
  text: string;
  contentType: string;
  /** True when the Markdown was cut at the cap. */
  truncated: boolean;
  /** Epoch ms when it was fetched. */
  fetchedAt: number;
}

/** A fetched page as the report cites it: `[n]` in the text, n in the source list. */
export interface Source {
  n: number;
  url: string;
  title: string;
  /** Epoch ms (the "accessed" date in the source list). */
  accessedAt: number;
  /** A workspace file cited as a source: its relative path and the lines cited. */
  path?: string;
  lines?: { start: number; end: number };
}
