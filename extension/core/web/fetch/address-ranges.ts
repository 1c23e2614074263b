// Which IP addresses a fetch may connect to. A page the model asks for must not turn the user's
// machine into a proxy into their own network: loopback, private ranges, link-local (cloud metadata
// lives there), carrier-grade NAT, multicast and reserved space are refused, and IPv6 forms that
// carry an IPv4 address (mapped, compatible, NAT64, 6to4) are judged by that IPv4 address; local-use
// NAT64 and Teredo, whose IPv4 target cannot be judged from the address, are refused.
import { isIP } from 'node:net';

/** Cloud instance metadata services: they hand out the machine's credentials, so never fetched. */
const METADATA_V4 = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200']);
const METADATA = 'a cloud metadata address';

/** [first address as a 32-bit number, prefix length, why]. */
const IPV4_REFUSED: Array<[number, number, string]> = [
  [ipv4('0.0.0.0'), 8, 'a "this network" address (0.0.0.0/8), which reaches the local machine'],
  [ipv4('10.0.0.0'), 8, 'a private address (10.0.0.0/8)'],
  [ipv4('100.64.0.0'), 10, 'a carrier-grade NAT address (100.64.0.0/10)'],
  [ipv4('127.0.0.0'), 8, 'a loopback address (127.0.0.0/8)'],
  [ipv4('169.254.0.0'), 16, 'a link-local address (169.254.0.0/16), where cloud metadata services live'],
  [ipv4('172.16.0.0'), 12, 'a private address (172.16.0.0/12)'],
  [ipv4('192.0.0.0'), 24, 'an IETF protocol address (192.0.0.0/24)'],
  [ipv4('192.0.2.0'), 24, 'a documentation address (192.0.2.0/24)'],
  [ipv4('192.88.99.0'), 24, 'a 6to4 relay address (192.88.99.0/24)'],
  [ipv4('192.168.0.0'), 16, 'a private address (192.168.0.0/16)'],
  [ipv4('198.18.0.0'), 15, 'a benchmarking address (198.18.0.0/15)'],
  [ipv4('198.51.100.0'), 24, 'a documentation address (198.51.100.0/24)'],
  [ipv4('203.0.113.0'), 24, 'a documentation address (203.0.113.0/24)'],
  [ipv4('224.0.0.0'), 4, 'a multicast address (224.0.0.0/4)'],
  [ipv4('240.0.0.0'), 4, 'a reserved address (240.0.0.0/4)'],
];

function ipv4(text: string): number {
  const parts = text.split('.').map(Number);
  return ((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0;
}

function inV4(value: number, base: number, prefix: number): boolean {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return (value & mask) >>> 0 === base;
}

/** The eight 16-bit groups of an IPv6 address (zone and brackets removed), or undefined. */
export function ipv6Groups(text: string): number[] | undefined {
  let s = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIP(s) !== 6) return undefined;
  // A trailing dotted IPv4 part (::ffff:1.2.3.4) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (dotted) {
    const v = ipv4(dotted[1]);
    s = `${s.slice(0, -dotted[1].length)}${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array(8 - h.length - t.length).fill('0');
  const groups = [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

function v4FromGroups(hi: number, lo: number): string {
  return `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`;
}

/** Why a fetch may not connect to this IPv4 address (dotted quad), or undefined when it may. */
function refuseV4(address: string): string | undefined {
  if (METADATA_V4.has(address)) return METADATA;
  const v = ipv4(address);
  if (v === 0xffffffff) return 'the broadcast address';
  return IPV4_REFUSED.find(([base, prefix]) => inV4(v, base, prefix))?.[2];
}

function refuseV6(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (!g) return 'not an IPv6 address Sextant can read';
  if (g.map((x) => x.toString(16)).join(':') === 'fd00:ec2:0:0:0:0:0:254') return METADATA;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return 'the unspecified address (::), which reaches the local machine';
  if (zeros(7) && g[7] === 1) return 'the IPv6 loopback address (::1)';
  // Addresses that carry an IPv4 address: judged by it (::ffff:127.0.0.1 is loopback).
  const embedded = (v4: string, form: string) => {
    const why = refuseV4(v4);
    return why ? `${form} of ${v4}, ${why}` : undefined;
  };
  if (zeros(5) && g[5] === 0xffff) return embedded(v4FromGroups(g[6], g[7]), 'an IPv4-mapped form');
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return embedded(v4FromGroups(g[6], g[7]), 'an IPv4-translated form');
  if (zeros(6))
    return embedded(v4FromGroups(g[6], g[7]), 'an IPv4-compatible form') ?? 'a deprecated IPv4-compatible address';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return embedded(v4FromGroups(g[6], g[7]), 'a NAT64 form');
  // Local-use NAT64 (RFC 8215) translates into the operator's own network, whatever the IPv4 part says.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'a local-use NAT64 address (64:ff9b:1::/48)';
  // Teredo tunnels to an IPv4 address hidden (obfuscated) in the address: not judged, refused.
  if (g[0] === 0x2001 && g[1] === 0) return 'a Teredo tunnel address (2001::/32)';
  if (g[0] === 0x2001 && g[1] === 2 && g[2] === 0) return 'a benchmarking address (2001:2::/48)';
  if (g[0] === 0x2002) return embedded(v4FromGroups(g[1], g[2]), 'a 6to4 form');
  if ((g[0] & 0xfe00) === 0xfc00) return 'a unique local address (fc00::/7)';
  if ((g[0] & 0xffc0) === 0xfe80) return 'a link-local address (fe80::/10)';
  if ((g[0] & 0xffc0) === 0xfec0) return 'a site-local address (fec0::/10)';
  if ((g[0] & 0xff00) === 0xff00) return 'a multicast address (ff00::/8)';
  if (g[0] === 0x100 && g.slice(1, 4).every((x) => x === 0)) return 'a discard-only address (100::/64)';
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'a documentation address (2001:db8::/32)';
  return undefined;
}

/**
 * Why a fetch may not connect to `address` (an IP literal, IPv6 with or without brackets), or
 * undefined when it is a public address.
 */
export function refusedAddress(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) return refuseV4(bare);
  if (family === 6) return refuseV6(bare);
  return 'not an IP address';
}

/** A cloud metadata address (refused even for hosts the user allowed to be private). */
export function isMetadataAddress(address: string): boolean {
  const why = refusedAddress(address);
  return why?.includes(METADATA) ?? false;
}
