// sextant.research.searchProviders (which providers, in which order) and sextant.research.endpoints
// (base-URL overrides: proxies, self-hosting, tests), validated. Anything unusable is left out with
// a problem to log, never thrown: a bad entry must not switch web search off.
import { SEARCH_PROVIDER_IDS, type SearchProviderId } from '../types';
import { isSearchProviderId } from './catalog';

export interface SearchSettings {
  /** Enabled providers, in the order they are tried. */
  providers: SearchProviderId[];
  /** Base URLs replacing a provider's own. */
  endpoints: Partial<Record<SearchProviderId, string>>;
}

export interface ParsedSearchSettings extends SearchSettings {
  problems: string[];
}

export function parseSearchSettings(rawProviders: unknown, rawEndpoints: unknown): ParsedSearchSettings {
  const problems: string[] = [];
  const providers: SearchProviderId[] = [];
  if (rawProviders === undefined || rawProviders === null) providers.push(...SEARCH_PROVIDER_IDS);
  else if (!Array.isArray(rawProviders)) {
    problems.push('sextant.research.searchProviders must be a list such as ["exa", "tavily"]; using all four');
    providers.push(...SEARCH_PROVIDER_IDS);
  } else {
    for (const raw of rawProviders) {
      const id = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
      if (!isSearchProviderId(id)) {
        problems.push(
          `sextant.research.searchProviders: "${String(raw)}" is not a search provider (known: ` +
            `${SEARCH_PROVIDER_IDS.join(', ')}); ignored`,
        );
      } else if (!providers.includes(id)) providers.push(id);
    }
  }
  const endpoints: Partial<Record<SearchProviderId, string>> = {};
  if (rawEndpoints !== undefined && rawEndpoints !== null) {
    if (typeof rawEndpoints !== 'object' || Array.isArray(rawEndpoints)) {
      problems.push('sextant.research.endpoints must be an object such as {"exa": "https://proxy.example/exa"}');
    } else {
      for (const [name, value] of Object.entries(rawEndpoints)) {
        if (!isSearchProviderId(name)) {
          problems.push(`sextant.research.endpoints: "${name}" is not a search provider; ignored`);
          continue;
        }
        const url = endpointUrl(value);
        if (typeof url === 'string') endpoints[name] = url;
        else problems.push(`sextant.research.endpoints.${name}: ${url.error}; the provider's own address is used`);
      }
    }
  }
  return { providers, endpoints, problems };
}

/** An http(s) base URL without credentials, query or fragment (trailing slashes dropped). */
function endpointUrl(value: unknown): string | { error: string } {
  if (typeof value !== 'string' || !value.trim()) return { error: 'must be a URL string' };
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return { error: `"${value}" is not a URL` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: `"${value}" is not an http(s) URL` };
  if (u.username || u.password) return { error: 'must not carry a user name or password' };
  if (u.search || u.hash) return { error: 'must not have a query or fragment' };
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}
