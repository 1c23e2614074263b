// Domain filters: what allowed_domains / blocked_domains accept, and the check every result passes
// whatever the provider did with the filter (Brave has no domain parameter; Firecrawl cannot take
// both lists at once; a proxy may ignore them). "example.com" means that host and its subdomains.

const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A host name from what a person or model might write: `example.com`, `https://example.com/docs`,
 * `*.example.com`, `Example.COM.`. Returns an error message for anything that is not a host name.
 */
export function normalizeDomain(raw: string): { ok: true; domain: string } | { ok: false; error: string } {
  let s = raw.trim().toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(s)) {
    try {
      s = new URL(s).hostname;
    } catch {
      return { ok: false, error: `"${raw}" is not a domain name (write e.g. example.com)` };
    }
  }
  s = s.replace(/^\*\./, '').replace(/\/.*$/, '').replace(/:\d+$/, '').replace(/\.$/, '');
  if (!HOST.test(s) || !s.includes('.')) {
    return { ok: false, error: `"${raw}" is not a domain name (write e.g. example.com)` };
  }
  return { ok: true, domain: s };
}

/** Normalises a list, dropping duplicates; the first bad entry makes the whole list an error. */
export function normalizeDomains(list: readonly string[] | undefined):
  | { ok: true; domains: string[] }
  | {
      ok: false;
      error: string;
    } {
  const out: string[] = [];
  for (const raw of list ?? []) {
    const d = normalizeDomain(raw);
    if (!d.ok) return d;
    if (!out.includes(d.domain)) out.push(d.domain);
  }
  return { ok: true, domains: out };
}

/** Whether `host` is `domain` or one of its subdomains. */
export function hostMatches(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === domain || h.endsWith(`.${domain}`);
}

/** Whether a result URL passes the filters (blocked wins over allowed). */
export function urlPassesDomains(url: string, allowed: readonly string[], blocked: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  if (blocked.some((d) => hostMatches(host, d))) return false;
  return allowed.length === 0 || allowed.some((d) => hostMatches(host, d));
}
