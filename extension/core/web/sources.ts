// The pages a session actually read, numbered in the order they were first fetched: what a report
// may cite as [n]. The same page fetched again (by its URL or where it redirected) keeps its number,
// so citations stay stable through a research run. One registry per chat session, kept in the tool
// session's extras (sourcesOf), so web_fetch records into it and the research loop reads from it.
import type { ToolSessionState } from '../tools/types';
import type { FetchedPage, Source } from './types';

/** The URL without its fragment, host lower-cased — how two mentions of one page are recognised. */
export function sourceKey(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url.trim();
  }
}

export class SourceRegistry {
  private readonly sources: Source[] = [];
  private readonly pages = new Map<number, FetchedPage>();
  private readonly byKey = new Map<string, Source>();

  /** Records a fetched page; a page already known (by asked or final URL) keeps its number. */
  add(page: FetchedPage): Source {
    const known = this.byUrl(page.url) ?? this.byUrl(page.finalUrl);
    if (known) {
      // The newest content is what claims are checked against; the number and first access stay.
      this.pages.set(known.n, page);
      for (const u of [page.url, page.finalUrl]) this.byKey.set(sourceKey(u), known);
      return known;
    }
    const source: Source = {
      n: this.sources.length + 1,
      url: page.finalUrl || page.url,
      title: page.title,
      accessedAt: page.fetchedAt,
    };
    this.sources.push(source);
    this.pages.set(source.n, page);
    for (const u of [page.url, page.finalUrl]) this.byKey.set(sourceKey(u), source);
    return source;
  }

  get(n: number): Source | undefined {
    return this.sources[n - 1];
  }

  /** The page behind source n, as last fetched (for the citation checker). */
  page(n: number): FetchedPage | undefined {
    return this.pages.get(n);
  }

  byUrl(url: string): Source | undefined {
    return this.byKey.get(sourceKey(url));
  }

  list(): readonly Source[] {
    return this.sources;
  }
}

const EXTRAS_KEY = 'research.sources';

/** The session's source registry, created on first use. */
export function sourcesOf(session: ToolSessionState): SourceRegistry {
  let reg = session.extras.get(EXTRAS_KEY);
  if (!(reg instanceof SourceRegistry)) {
    reg = new SourceRegistry();
    session.extras.set(EXTRAS_KEY, reg);
  }
  return reg as SourceRegistry;
}
