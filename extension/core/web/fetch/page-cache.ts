// Pages fetched in the last 15 minutes, by URL: the model often reads the same page twice in one
// research run (once to skim, once for a detail), and a second fetch would cost time and load the
// site. Bounded in entries; the clock is injectable so tests need no waiting.
import type { FetchedPage } from '../types';

export const CACHE_TTL_MS = 15 * 60_000;

export interface PageCacheOptions {
  ttlMs?: number;
  maxEntries?: number;
  now?(): number;
}

/** The cache key: the URL without its fragment (#section names a place in the same page). */
export function cacheKey(url: URL | string): string {
  const u = new URL(typeof url === 'string' ? url : url.href);
  u.hash = '';
  return u.href;
}

export class PageCache {
  private readonly entries = new Map<string, { page: FetchedPage; at: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(opts: PageCacheOptions = {}) {
    this.ttlMs = opts.ttlMs ?? CACHE_TTL_MS;
    this.maxEntries = opts.maxEntries ?? 64;
    this.now = opts.now ?? Date.now;
  }

  get(key: string): FetchedPage | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.now() - hit.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.page;
  }

  set(key: string, page: FetchedPage): void {
    this.entries.delete(key);
    this.entries.set(key, { page, at: this.now() });
    // Oldest first in a Map's order: drop from the front.
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
  }
}
