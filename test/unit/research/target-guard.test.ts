// The fetch guard (SSRF): which URLs and addresses web_fetch refuses, whatever form they come in.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { isMetadataAddress, refusedAddress } from '../../../extension/core/web/fetch/address-ranges';
import { FetchError } from '../../../extension/core/web/fetch/fetch-error';
import {
  isAllowedPrivateHost,
  parseFetchUrl,
  vetTarget,
  type Resolver,
} from '../../../extension/core/web/fetch/target-guard';

const noDns: Resolver = async (host) => {
  throw Object.assign(new Error(`no DNS in tests (${host})`), { code: 'ENOTFOUND' });
};
const publicDns: Resolver = async () => [{ address: '93.184.216.34', family: 4 }];

async function refused(raw: string, opts: { resolve?: Resolver; allow?: string[] } = {}): Promise<FetchError> {
  try {
    const url = parseFetchUrl(raw);
    const t = await vetTarget(url, { resolve: opts.resolve ?? noDns, allowPrivateHosts: opts.allow ?? [] });
    assert.fail(`${raw} was let through to ${t.address}`);
  } catch (e) {
    assert.ok(e instanceof FetchError, `${raw}: ${String(e)}`);
    return e;
  }
}

describe('private, loopback and internal literals are refused', () => {
  const cases: Array<[string, RegExp]> = [
    ['http://127.0.0.1/', /loopback/],
    ['http://127.255.0.9:8080/x', /loopback/],
    ['http://10.1.2.3/', /private address \(10\.0\.0\.0\/8\)/],
    ['http://172.16.0.1/', /172\.16\.0\.0\/12/],
    ['http://172.31.255.254/', /172\.16\.0\.0\/12/],
    ['http://192.168.1.1/admin', /192\.168\.0\.0\/16/],
    ['http://169.254.169.254/latest/meta-data/', /metadata/],
    ['http://169.254.10.20/', /link-local/],
    ['http://100.64.0.1/', /carrier-grade NAT/],
    ['http://100.127.255.255/', /carrier-grade NAT/],
    ['http://100.100.100.200/', /metadata/],
    ['http://0.0.0.0/', /this network/],
    ['http://224.0.0.1/', /multicast/],
    ['http://255.255.255.255/', /broadcast/],
    ['http://[::1]/', /loopback/],
    ['http://[::]/', /unspecified/],
    ['http://[::ffff:127.0.0.1]/', /IPv4-mapped form of 127\.0\.0\.1, a loopback/],
    ['http://[::ffff:7f00:1]/', /IPv4-mapped form of 127\.0\.0\.1/],
    ['http://[::ffff:169.254.169.254]/', /metadata/],
    ['http://[::ffff:10.0.0.1]/', /IPv4-mapped form of 10\.0\.0\.1/],
    ['http://[::127.0.0.1]/', /IPv4-compatible/],
    ['http://[64:ff9b::7f00:1]/', /NAT64 form of 127\.0\.0\.1/],
    ['http://[2002:c0a8:0101::1]/', /6to4 form of 192\.168\.1\.1/],
    ['http://[64:ff9b:1::808:808]/', /local-use NAT64/],
    ['http://[64:ff9b:1:abcd::1]/', /local-use NAT64/],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', /Teredo/],
    ['http://[2001::1]/', /Teredo/],
    ['http://[2001:2::1]/', /benchmarking/],
    ['http://[fc00::1]/', /unique local/],
    ['http://[fd12:3456:789a::1]/', /unique local/],
    ['http://[fd00:ec2::254]/', /metadata/],
    ['http://[fe80::1]/', /link-local address \(fe80::\/10\)/],
    ['http://[febf:ffff::1]/', /link-local/],
    ['http://[ff02::1]/', /multicast/],
    // Encoded IPv4 forms: the URL parser normalises them, and the guard sees the real address.
    ['http://2130706433/', /127\.0\.0\.1 is a loopback/],
    ['http://0177.0.0.1/', /127\.0\.0\.1 is a loopback/],
    ['http://0x7f.1/', /127\.0\.0\.1 is a loopback/],
    ['http://0x7f000001/', /loopback/],
    ['http://017700000001/', /loopback/],
    ['http://127.1/', /loopback/],
    ['http://0xa9.0xfe.0xa9.0xfe/', /metadata/],
    ['http://localhost:3000/', /this machine/],
    ['http://api.localhost/', /this machine/],
    ['http://metadata.google.internal/computeMetadata/v1/', /metadata service/],
  ];
  for (const [raw, why] of cases) {
    test(raw, async () => {
      const e = await refused(raw);
      assert.equal(e.code, 'blocked');
      assert.match(e.message, why);
      assert.match(e.message, /web_fetch does not reach private, local or internal addresses/);
    });
  }
});

test('public literals pass, and the address to connect to is the literal', async () => {
  for (const raw of [
    'http://93.184.216.34/',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/x',
    'http://8.8.8.8:8080/',
  ]) {
    const t = await vetTarget(parseFetchUrl(raw), { resolve: noDns, allowPrivateHosts: [] });
    assert.equal(t.address, new URL(raw).hostname.replace(/^\[|\]$/g, ''));
  }
  for (const a of ['172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '11.0.0.1', '2001:4860::8888'])
    assert.equal(refusedAddress(a), undefined, a);
  assert.equal(isMetadataAddress('169.254.169.254'), true);
  assert.equal(isMetadataAddress('10.0.0.1'), false);
});

test('non-http schemes, credentials and non-URLs are refused before anything else', async () => {
  for (const raw of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://example.com/', 'data:text/html,<p>x</p>']) {
    const e = await refused(raw);
    assert.equal(e.code, 'scheme', raw);
    assert.match(e.message, /only http and https/);
  }
  assert.equal((await refused('javascript:alert(1)')).code, 'scheme');
  assert.equal((await refused('https://user:pw@example.com/')).code, 'invalid_url');
  assert.match((await refused('not a url')).message, /is not a URL/);
});

test('a host name resolving to a private address is refused; a public one passes', async () => {
  const internal: Resolver = async () => [{ address: '10.0.0.7', family: 4 }];
  const e = await refused('https://wiki.corp.example/', { resolve: internal });
  assert.match(e.message, /wiki\.corp\.example resolves to 10\.0\.0\.7, a private address/);
  assert.match(e.message, /sextant\.web\.allowPrivateHosts/);
  const t = await vetTarget(parseFetchUrl('https://example.com/a'), { resolve: publicDns, allowPrivateHosts: [] });
  assert.equal(t.address, '93.184.216.34');
  assert.equal(t.host, 'example.com');
  const v6: Resolver = async () => [{ address: '::ffff:192.168.0.10', family: 6 }];
  assert.match((await refused('https://printer.example/', { resolve: v6 })).message, /IPv4-mapped form of 192\.168/);
});

test('a name answering public and private addresses at once is refused', async () => {
  const mixed: Resolver = async () => [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ];
  assert.match((await refused('http://rebind.example/', { resolve: mixed })).message, /resolves to 127\.0\.0\.1/);
});

test('DNS failures and empty answers are clear errors', async () => {
  const e = await refused('https://nowhere.example/');
  assert.equal(e.code, 'dns');
  assert.match(e.message, /nowhere\.example could not be resolved \(ENOTFOUND\)/);
  assert.equal((await refused('https://empty.example/', { resolve: async () => [] })).code, 'dns');
});

test('allowPrivateHosts lets listed hosts through, but never a metadata address', async () => {
  const loop: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const ok = await vetTarget(parseFetchUrl('http://dev.test:8080/'), {
    resolve: loop,
    allowPrivateHosts: ['dev.test'],
  });
  assert.equal(ok.address, '127.0.0.1');
  const lit = await vetTarget(parseFetchUrl('http://127.0.0.1:5000/'), {
    resolve: noDns,
    allowPrivateHosts: ['127.0.0.1'],
  });
  assert.equal(lit.address, '127.0.0.1');
  const local = await vetTarget(parseFetchUrl('http://localhost/'), {
    resolve: loop,
    allowPrivateHosts: ['localhost'],
  });
  assert.equal(local.address, '127.0.0.1');
  const sub = await vetTarget(parseFetchUrl('http://a.b.corp.test/'), {
    resolve: loop,
    allowPrivateHosts: ['*.corp.test'],
  });
  assert.equal(sub.address, '127.0.0.1');
  // Listing one host does not open others.
  assert.equal((await refused('http://other.test/', { resolve: loop, allow: ['dev.test'] })).code, 'blocked');
  assert.equal((await refused('http://corp.test/', { resolve: loop, allow: ['*.corp.test'] })).code, 'blocked');
  // Metadata stays refused even when listed, by address and by name.
  const meta: Resolver = async () => [{ address: '169.254.169.254', family: 4 }];
  const e = await refused('http://meta.test/', { resolve: meta, allow: ['meta.test'] });
  assert.match(e.message, /metadata/);
  assert.doesNotMatch(e.message, /allowPrivateHosts/);
  assert.equal((await refused('http://169.254.169.254/', { allow: ['169.254.169.254'] })).code, 'blocked');
  assert.equal(isAllowedPrivateHost('[::1]', ['::1']), true);
  assert.equal(isAllowedPrivateHost('Dev.Test.', ['dev.test']), true);
});
