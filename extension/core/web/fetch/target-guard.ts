// Decides whether a URL may be fetched and which address to connect to: http(s) only, no
// credentials in the URL, and every address the host resolves to must be public — unless the user
// listed the host in `sextant.web.allowPrivateHosts` (local servers, tests). Cloud metadata
// addresses are refused even then. The address returned is the one the request connects to, so a
// DNS server that answers differently the second time (rebinding) cannot switch it.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isMetadataAddress, refusedAddress } from './address-ranges';
import { FetchError } from './fetch-error';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (injectable so tests never touch real DNS). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** A URL that passed the guard, with the address its request must connect to. */
export interface VettedTarget {
  url: URL;
  /** The host name without IPv6 brackets. */
  host: string;
  address: string;
  family: 4 | 6;
}

/** The system resolver (getaddrinfo), every address in the order it gives them. */
export const systemResolver: Resolver = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Host names that always mean this machine or a metadata service, whatever DNS says. */
const LOCAL_NAMES = /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/;
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Parses what the model asked for: an absolute http(s) URL without credentials. */
export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new FetchError('invalid_url', `"${raw}" is not a URL. Give a full address such as https://example.com/page.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchError('scheme', `${url.protocol} URLs are not fetched: only http and https.`);
  if (url.username || url.password)
    throw new FetchError('invalid_url', 'URLs with a user name or password in them are not fetched.');
  return url;
}

function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Whether `host` is on the user's list: an exact host name or IP address, or `*.example.test` for
 * every subdomain of example.test.
 */
export function isAllowedPrivateHost(host: string, allowList: readonly string[]): boolean {
  const h = bareHost(host);
  return allowList.some((raw) => {
    const entry = bareHost(String(raw).trim());
    if (!entry) return false;
    if (entry.startsWith('*.')) return h.endsWith(entry.slice(1));
    return h === entry;
  });
}

export interface GuardOptions {
  resolve: Resolver;
  allowPrivateHosts: readonly string[];
  /** Who is refused, for the message ("web_fetch" by default; the browser tools name themselves). */
  who?: string;
}

/** Checks `url` and picks the address to connect to; throws FetchError when it may not be fetched. */
export async function vetTarget(url: URL, opts: GuardOptions): Promise<VettedTarget> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchError('scheme', `${url.protocol} URLs are not fetched: only http and https.`);
  if (url.username || url.password)
    throw new FetchError('invalid_url', 'URLs with a user name or password in them are not fetched.');
  const host = bareHost(url.hostname);
  const allowed = isAllowedPrivateHost(host, opts.allowPrivateHosts);
  const refuse = (what: string, hint = !allowed) =>
    new FetchError(
      'blocked',
      `${what}; ${opts.who ?? 'web_fetch'} does not reach private, local or internal addresses.` +
        (hint
          ? ` (To let it reach a local server such as a dev server, add "${host}" to sextant.web.allowPrivateHosts` +
            ' in your user settings.)'
          : ''),
    );
  if (METADATA_NAMES.has(host)) throw refuse(`${url.host} is a cloud metadata service`, false);
  const literal = isIP(host);
  if (literal) {
    if (isMetadataAddress(host)) throw refuse(`${url.host} is a cloud metadata address`, false);
    const why = refusedAddress(host);
    if (why && !allowed) throw refuse(`${url.host} is ${why}`);
    return { url, host, address: host, family: literal === 6 ? 6 : 4 };
  }
  if (LOCAL_NAMES.test(host) && !allowed) throw refuse(`${url.host} is this machine`);
  let addresses: ResolvedAddress[];
  try {
    addresses = await opts.resolve(host);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    throw new FetchError('dns', `${host} could not be resolved${typeof code === 'string' ? ` (${code})` : ''}.`);
  }
  if (addresses.length === 0) throw new FetchError('dns', `${host} has no addresses.`);
  // Every address is checked, not only the one used: a name that resolves to both a public and a
  // private address is a rebinding attempt or a misconfiguration either way.
  for (const a of addresses) {
    if (isMetadataAddress(a.address)) throw refuse(`${host} resolves to ${a.address}, a cloud metadata address`, false);
    const why = refusedAddress(a.address);
    if (why && !allowed) throw refuse(`${host} resolves to ${a.address}, ${why}`);
  }
  return { url, host, address: addresses[0].address, family: addresses[0].family };
}
