// The search client: one query, the enabled providers in the user's order, and the first that
// answers wins. Around each provider: its key (SecretStorage, then the environment) and the origin
// the key is bound to, a client-side rate limit, retries with backoff that honour retry-after, and a
// circuit breaker that skips a provider which keeps failing. A provider without a key, with an open
// breaker or that fails is passed over for the next; only when all fail does the search fail — with
// each provider's reason, and exactly what to configure when no provider has a key at all.
import type { Logger, SecretsPort, WebSearchOutcome, WebSearchPort, WebSearchRequest } from '../../ports';
import { destinationOfUrl, type ConfirmKeyDestination } from '../../providers/key-binding';
import type { SearchProviderId, SearchResult } from '../types';
import type { NormalizedQuery, SearchApi } from './api';
import {
  CircuitBreaker,
  DEFAULT_BREAKER,
  type BreakerPolicy,
  type BreakerState,
} from '../../resilience/circuit-breaker';
import { SEARCH_APIS } from './catalog';
import { systemClock, type Clock } from '../../resilience/clock';
import { normalizeDomains, urlPassesDomains } from './domains';
import { countsAgainstProvider, isSearchError, SearchError, type SearchFailure } from './errors';
import { callSearchApi, type FetchLike } from './http';
import { checkSearchKeyDestination, lookupSearchKey, noProvidersEnabledMessage, noSearchKeyMessage } from './keys';
import { RateLimiter } from '../../resilience/rate-limiter';
import { DEFAULT_RETRY, withRetries, type RetryPolicy } from './retry';
import type { SearchSettings } from './settings';
import { errorText } from '../../util/error-text';

export const DEFAULT_MAX_RESULTS = 10;
export const MAX_RESULTS_LIMIT = 50;

export interface SearchClientOptions {
  /** Read on every search, so edits apply at once. */
  settings(): SearchSettings;
  secrets: SecretsPort;
  env: Record<string, string | undefined>;
  /** Asked before a key goes to an origin it is not bound to; without it such a key is not sent. */
  confirmKeyDestination?: ConfirmKeyDestination;
  fetch?: FetchLike;
  clock?: Clock;
  random?: () => number;
  log?: Logger;
  /** Per request (each retry gets its own). */
  timeoutMs?: number;
  maxResponseBytes?: number;
  retry?: Partial<RetryPolicy>;
  breaker?: Partial<BreakerPolicy>;
  /** Spacing between requests per provider; defaults to each provider's own. */
  minIntervalMs?: Partial<Record<SearchProviderId, number>>;
}

export interface ProviderStatus {
  id: SearchProviderId;
  label: string;
  enabled: boolean;
  /** Where the key would come from, if there is one. */
  key: 'stored' | 'env' | 'none';
  envVar: string;
  endpoint: string;
  breaker: BreakerState;
}

/** Per provider and (endpoint, key): a new key or endpoint starts with a clean breaker. */
interface ProviderState {
  fingerprint: string;
  limiter: RateLimiter;
  breaker: CircuitBreaker;
  /** "Send once" answers for this endpoint, kept for the client's life (a run makes several searches). */
  keyAllowed: boolean;
}

export class SearchClient implements WebSearchPort {
  private readonly clock: Clock;
  private readonly retry: RetryPolicy;
  private readonly breakerPolicy: BreakerPolicy;
  private readonly states = new Map<SearchProviderId, ProviderState>();

  constructor(private readonly o: SearchClientOptions) {
    this.clock = o.clock ?? systemClock;
    this.retry = { ...DEFAULT_RETRY, ...o.retry };
    this.breakerPolicy = { ...DEFAULT_BREAKER, ...o.breaker };
  }

  /**
   * Searches with the first provider that answers. Throws SearchError: `bad_request` for a bad domain
   * filter, `disabled` for a provider that is not enabled, `no_key` when no enabled provider has a key,
   * `all_failed` with every provider's reason, `aborted` when `signal` aborts.
   */
  async search(request: WebSearchRequest, signal: AbortSignal): Promise<WebSearchOutcome> {
    const query = normalizeQuery(request, this.clock.now());
    const { providers, endpoints } = this.o.settings();
    if (providers.length === 0) throw new SearchError('disabled', noProvidersEnabledMessage());
    const order = [...providers];
    if (request.provider) {
      if (!order.includes(request.provider))
        throw new SearchError(
          'disabled',
          `${SEARCH_APIS[request.provider].label} is not enabled: sextant.research.searchProviders lists ` +
            `${order.join(', ')}. Search without "provider", or add "${request.provider}" to that setting.`,
          request.provider,
        );
      order.splice(order.indexOf(request.provider), 1);
      order.unshift(request.provider);
    }
    const failures: SearchFailure[] = [];
    for (const id of order) {
      if (signal.aborted) throw aborted();
      const api = SEARCH_APIS[id];
      try {
        const results = await this.searchWith(api, endpoints[id] ?? api.defaultBaseUrl, query, signal);
        return { provider: id, results, skipped: failures.map((f) => ({ provider: f.provider, reason: f.message })) };
      } catch (err) {
        if (signal.aborted) throw aborted();
        const e = isSearchError(err) ? err : new SearchError('server', `${api.label} failed: ${errorText(err)}`, id);
        failures.push({ provider: id, code: e.code, message: e.message });
        if (e.code !== 'no_key') this.o.log?.warn(`web search: ${e.message}`);
      }
    }
    if (failures.every((f) => f.code === 'no_key')) throw new SearchError('no_key', noSearchKeyMessage(order));
    const lines = failures.map((f) => `- ${SEARCH_APIS[f.provider].label}: ${f.message}`);
    throw new SearchError(
      'all_failed',
      `Web search failed with every enabled provider:\n${lines.join('\n')}`,
      undefined,
      undefined,
      undefined,
      failures,
    );
  }

  /** Which providers are enabled, have a key, where they send requests, and whether they are being skipped. */
  async status(): Promise<ProviderStatus[]> {
    const { providers, endpoints } = this.o.settings();
    return Promise.all(
      (Object.keys(SEARCH_APIS) as SearchProviderId[]).map(async (id) => {
        const api = SEARCH_APIS[id];
        const key = await lookupSearchKey(api, this.o.secrets, this.o.env);
        return {
          id,
          label: api.label,
          enabled: providers.includes(id),
          key: key?.source ?? 'none',
          envVar: api.envVar,
          endpoint: endpoints[id] ?? api.defaultBaseUrl,
          breaker: this.states.get(id)?.breaker.state ?? 'closed',
        };
      }),
    );
  }

  /** For Research mode before it starts: undefined when a search can be tried, else what to configure. */
  async setupProblem(): Promise<string | undefined> {
    const { providers } = this.o.settings();
    if (providers.length === 0) return noProvidersEnabledMessage();
    const status = await this.status();
    return status.some((s) => s.enabled && s.key !== 'none') ? undefined : noSearchKeyMessage(providers);
  }

  private async searchWith(
    api: SearchApi,
    baseUrl: string,
    query: NormalizedQuery,
    signal: AbortSignal,
  ): Promise<SearchResult[]> {
    const key = await lookupSearchKey(api, this.o.secrets, this.o.env);
    if (!key) throw new SearchError('no_key', `no API key (${api.envVar} or "Sextant: Set Search API Key")`, api.id);
    const state = this.stateFor(api, baseUrl, key.value);
    const gate = state.breaker.check();
    if (!gate.allowed)
      throw new SearchError(
        'server',
        `skipped for ${Math.ceil(gate.retryInMs / 1000)} s more after failing: ${gate.reason}`,
        api.id,
      );
    const held = state.limiter.waitMs();
    if (held > this.retry.maxRetryAfterMs) {
      state.breaker.abandon();
      throw new SearchError('rate_limit', `rate-limited for ${Math.ceil(held / 1000)} s more`, api.id);
    }
    if (!state.keyAllowed) {
      try {
        await checkSearchKeyDestination({
          api,
          key,
          destination: destinationOfUrl(baseUrl),
          secrets: this.o.secrets,
          confirm: this.o.confirmKeyDestination,
        });
      } catch (err) {
        state.breaker.abandon();
        throw err;
      }
      state.keyAllowed = true;
    }
    const started = this.clock.now();
    const asked = { ...query, maxResults: Math.min(query.maxResults, api.maxResults) };
    try {
      const answer = await withRetries(
        async () => {
          await state.limiter.acquire(signal);
          return callSearchApi(api, asked, key.value, baseUrl, {
            fetch: this.o.fetch ?? ((url, init) => fetch(url, init)),
            signal,
            timeoutMs: this.o.timeoutMs ?? 20_000,
            maxResponseBytes: this.o.maxResponseBytes ?? 2_000_000,
            now: () => this.clock.now(),
          });
        },
        {
          policy: this.retry,
          clock: this.clock,
          random: this.o.random ?? Math.random,
          signal,
          onRetry: (err, waitMs, attempt) => {
            if (isSearchError(err) && err.retryAfterMs !== undefined)
              state.limiter.holdUntil(this.clock.now() + err.retryAfterMs);
            this.o.log?.info(`web search: ${err.message} Retry ${attempt} in ${Math.round(waitMs)} ms.`);
          },
        },
      );
      state.breaker.success();
      if (answer.waitMs !== undefined) state.limiter.holdUntil(this.clock.now() + answer.waitMs);
      const results = finish(answer.results, query);
      this.o.log?.info(
        `web search: ${api.label} answered ${answer.results.length} results (${results.length} kept) in ` +
          `${this.clock.now() - started} ms`,
      );
      return results;
    } catch (err) {
      if (signal.aborted) {
        state.breaker.abandon();
        throw aborted();
      }
      if (isSearchError(err)) {
        if (err.retryAfterMs !== undefined) state.limiter.holdUntil(this.clock.now() + err.retryAfterMs);
        if (countsAgainstProvider(err.code))
          state.breaker.failure(err.message, { openNow: err.code === 'auth' || err.code === 'quota' });
        else state.breaker.abandon();
      } else state.breaker.failure(String(err));
      throw err;
    }
  }

  private stateFor(api: SearchApi, baseUrl: string, key: string): ProviderState {
    const fingerprint = `${baseUrl}\u0000${key}`;
    let state = this.states.get(api.id);
    if (!state || state.fingerprint !== fingerprint) {
      state = {
        fingerprint,
        limiter: new RateLimiter(this.o.minIntervalMs?.[api.id] ?? api.minIntervalMs, this.clock),
        breaker: new CircuitBreaker(this.breakerPolicy, this.clock),
        keyAllowed: false,
      };
      this.states.set(api.id, state);
    }
    return state;
  }
}

function aborted(): SearchError {
  return new SearchError('aborted', 'The web search was stopped.');
}

/** Validates the request; a bad domain is the caller's to fix, so it fails before any provider is asked. */
export function normalizeQuery(request: WebSearchRequest, now = Date.now()): NormalizedQuery {
  const query = request.query.trim().replace(/\s+/g, ' ');
  if (!query) throw new SearchError('bad_request', 'The search query is empty.');
  const allowed = normalizeDomains(request.allowedDomains);
  if (!allowed.ok) throw new SearchError('bad_request', `allowed_domains: ${allowed.error}.`);
  const blocked = normalizeDomains(request.blockedDomains);
  if (!blocked.ok) throw new SearchError('bad_request', `blocked_domains: ${blocked.error}.`);
  const both = allowed.domains.filter((d) => blocked.domains.includes(d));
  if (both.length)
    throw new SearchError('bad_request', `${both.join(', ')} is both allowed and blocked; list it in one of them.`);
  const wanted = Math.floor(request.maxResults ?? DEFAULT_MAX_RESULTS);
  const maxResults = Math.min(MAX_RESULTS_LIMIT, Math.max(1, Number.isFinite(wanted) ? wanted : DEFAULT_MAX_RESULTS));
  const since = sinceDay(request.recencyDays, now);
  return {
    query,
    allowedDomains: allowed.domains,
    blockedDomains: blocked.domains,
    maxResults,
    ...(since ? { since, recencyDays: Math.round(request.recencyDays ?? 0) } : {}),
  };
}

/** The first day of a recency window (YYYY-MM-DD, UTC), or undefined when there is none. */
export function sinceDay(recencyDays: number | undefined, now: number): string | undefined {
  if (recencyDays === undefined || !Number.isFinite(recencyDays) || recencyDays <= 0) return undefined;
  return new Date(now - Math.round(recencyDays) * 86_400_000).toISOString().slice(0, 10);
}

/** Whether a result is inside the window: a dated one published on or after `since`; an undated one is kept. */
export function withinWindow(r: SearchResult, since: string | undefined): boolean {
  if (!since || !r.publishedAt) return true;
  const t = Date.parse(r.publishedAt);
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) >= since;
}

/** Domain filters and the recency window applied whatever the provider did, duplicates dropped, capped. */
function finish(results: SearchResult[], q: NormalizedQuery): SearchResult[] {
  const seen = new Set<string>();
  const out: SearchResult[] = [];
  for (const r of results) {
    if (!urlPassesDomains(r.url, q.allowedDomains, q.blockedDomains) || seen.has(r.url)) continue;
    if (!withinWindow(r, q.since)) continue;
    seen.add(r.url);
    out.push(r);
    if (out.length >= q.maxResults) break;
  }
  return out;
}
