// What the browser may reach: the same rules as web_fetch (core/web/fetch/target-guard.ts) applied to
// every connection the browser opens, not only to the URL the model names. A page on an allowed host
// cannot reach a private one through an <img>, a fetch(), a redirect or a WebSocket: each opens a
// connection, and each connection is judged here and pinned to the address judged.
import { FetchError } from '../../web/fetch/fetch-error';
import { parseFetchUrl, type Resolver, systemResolver, vetTarget } from '../../web/fetch/target-guard';
import type { ConnectionGuard } from './port';

export interface BrowserGuardOptions {
  /** `sextant.web.allowPrivateHosts`, read on every connection (a change applies at once). */
  allowPrivateHosts(): readonly string[];
  resolve?: Resolver;
}

const WHO = 'the browser';

/**
 * Hosts Chrome, Chromium and Edge call on their own (component and extension updates, account and
 * autofill services, Safe Browsing, telemetry) even with --disable-background-networking. A fresh
 * profile needs none of them, and the page did not ask for them: refused quietly.
 */
const BROWSER_SERVICE_HOSTS = [
  /^update\.googleapis\.com$/,
  /^clients\d*\.google\.com$/,
  /^accounts\.google\.com$/,
  /^(content-autofill|clientservices|safebrowsing|optimizationguide-pa|redirector\.gvt1|android)\.googleapis\.com$/,
  /(^|\.)gvt1\.com$/,
  /^edge\.microsoft\.com$/,
  /^(config|self)\.edge\.skype\.com$/,
];

export function browserConnectionGuard(o: BrowserGuardOptions): ConnectionGuard {
  const resolve = o.resolve ?? systemResolver;
  return async ({ host, port, scheme }) => {
    if (!Number.isInteger(port) || port <= 0 || port > 65535) return { ok: false, reason: `port ${port} is not valid` };
    if (BROWSER_SERVICE_HOSTS.some((h) => h.test(host.toLowerCase())))
      return { ok: false, reason: `${host} is one of the browser's own background services`, quiet: true };
    let url: URL;
    try {
      url = new URL(`${scheme}://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}/`);
    } catch {
      return { ok: false, reason: `"${host}" is not a host name` };
    }
    try {
      const vetted = await vetTarget(url, { resolve, allowPrivateHosts: o.allowPrivateHosts(), who: WHO });
      return { ok: true, address: vetted.address };
    } catch (e) {
      if (e instanceof FetchError) return { ok: false, reason: e.message };
      return { ok: false, reason: `could not check ${host}: ${e instanceof Error ? e.message : String(e)}` };
    }
  };
}

/**
 * The URL the model asked to open, checked before anything launches: http(s) only, no credentials,
 * and a host the guard lets through. Returns the parsed URL or the refusal written for the model.
 */
export async function vetNavigation(
  raw: string,
  o: BrowserGuardOptions,
): Promise<{ ok: true; url: URL } | { ok: false; reason: string }> {
  let url: URL;
  try {
    url = parseFetchUrl(raw);
  } catch (e) {
    return {
      ok: false,
      reason: e instanceof Error ? e.message.replace(/are not fetched/, 'are not opened') : String(e),
    };
  }
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  const port = Number(url.port) || (scheme === 'https' ? 443 : 80);
  const verdict = await browserConnectionGuard(o)({ host: url.hostname.replace(/^\[|\]$/g, ''), port, scheme });
  return verdict.ok ? { ok: true, url } : { ok: false, reason: verdict.reason };
}

/** The origin rules and approvals speak of: scheme, host and port. */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
