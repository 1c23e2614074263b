// sextant.sandbox.network.allowedHosts: which hosts a boxed command reaches through the proxy.
// Entries are host names (`registry.npmjs.org`), a leading `*.` for subdomains (`*.pythonhosted.org`),
// or `host:port`; matched case-insensitively. Anything else — IP literals included — is refused.

/**
 * The default: the package registries installs need, and nothing a command could post data to
 * freely (no code hosts, no paste sites): npm (+ Yarn's mirror), PyPI, crates.io, the Go module
 * proxy and checksum database, Maven Central and the Gradle plugin portal, RubyGems.
 */
export const DEFAULT_ALLOWED_HOSTS = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'crates.io',
  'index.crates.io',
  'static.crates.io',
  'proxy.golang.org',
  'sum.golang.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'plugins.gradle.org',
  'rubygems.org',
];

/** The entry that lets host:port through, or undefined. */
export function matchAllowedHost(allowed: readonly string[], host: string, port: number): string | undefined {
  const h = host.toLowerCase().replace(/\.$/, '');
  for (const raw of allowed) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const colon = entry.lastIndexOf(':');
    const [name, entryPort] = colon > 0 ? [entry.slice(0, colon), Number(entry.slice(colon + 1))] : [entry, undefined];
    if (entryPort !== undefined && entryPort !== port) continue;
    if (name === h) return raw;
    if (name.startsWith('*.') && h.endsWith(name.slice(1)) && h.length > name.length - 1) return raw;
  }
  return undefined;
}
