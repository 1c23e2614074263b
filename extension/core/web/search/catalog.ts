// The search providers Sextant knows, by id, in the default order of sextant.research.searchProviders.
import { SEARCH_PROVIDER_IDS, type SearchProviderId } from '../types';
import type { SearchApi } from './api';
import { braveApi } from './brave';
import { exaApi } from './exa';
import { firecrawlApi } from './firecrawl';
import { tavilyApi } from './tavily';

export const SEARCH_APIS: Readonly<Record<SearchProviderId, SearchApi>> = {
  exa: exaApi,
  tavily: tavilyApi,
  brave: braveApi,
  firecrawl: firecrawlApi,
};

export function searchApi(id: SearchProviderId): SearchApi {
  return SEARCH_APIS[id];
}

export function isSearchProviderId(value: unknown): value is SearchProviderId {
  return typeof value === 'string' && (SEARCH_PROVIDER_IDS as readonly string[]).includes(value);
}

/** The environment variables search keys may come from: EXA_API_KEY, TAVILY_API_KEY, … */
export const SEARCH_KEY_ENV_NAMES: readonly string[] = SEARCH_PROVIDER_IDS.map((id) => SEARCH_APIS[id].envVar);
