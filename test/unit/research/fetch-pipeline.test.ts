// The fetch pipeline end to end against the local web corpus (127.0.0.1): pages, PDFs, redirects,
// caps, timeouts, the cache, and the guard applied on every hop. No test touches the internet: the
// corpus is reached as corpus.test through an injected resolver and sextant.web.allowPrivateHosts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import * as html from '../../../extension/core/web/fetch/html-to-markdown';
import { FetchError } from '../../../extension/core/web/fetch/fetch-error';
import { createPageFetcher, type PageFetcherOptions } from '../../../extension/core/web/fetch/page-fetcher';
import { pinnedRequest, type PinnedResponse, type Transport } from '../../../extension/core/web/fetch/pinned-request';
import type { Resolver } from '../../../extension/core/web/fetch/target-guard';
import { corpusResolver, startWebCorpus, type WebCorpus } from '../../fixtures/research/web-corpus';

let web: WebCorpus;
before(async () => {
  web = await startWebCorpus();
});
after(async () => web.close());

function setup(extra: Partial<PageFetcherOptions> = {}) {
  let clock = 1_700_000_000_000;
  let loads = 0;
  const allow = { hosts: ['corpus.test'] };
  const fetcher = createPageFetcher({
    allowPrivateHosts: () => allow.hosts,
    loadHtmlConverter: async () => {
      loads++;
      return html;
    },
    resolve: corpusResolver,
    now: () => clock,
    ...extra,
  });
  return {
    fetcher,
    allow,
    loads: () => loads,
    tick: (ms: number) => {
      clock += ms;
    },
    at: () => clock,
  };
}

const corpus = (path: string) => `http://corpus.test:${web.port}${path}`;

async function failure(p: Promise<unknown>): Promise<FetchError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof FetchError, String(e));
    return e;
  }
  assert.fail('the fetch succeeded');
}

test('an article: readable part as Markdown, absolute links, no page furniture, no scripts run', async () => {
  const { fetcher, at } = setup();
  const { page, fromCache } = await fetcher.fetch(corpus('/pages/tidal-energy.html'));
  assert.equal(fromCache, false);
  assert.equal(page.title, 'Tidal turbines pass their first winter');
  assert.equal(page.url, corpus('/pages/tidal-energy.html'));
  assert.equal(page.finalUrl, page.url);
  assert.equal(page.contentType, 'text/html');
  assert.equal(page.truncated, false);
  assert.equal(page.fetchedAt, at());
  assert.match(page.markdown, /^## Why the winter mattered$/m);
  assert.match(page.markdown, /^- Installed capacity: 8 megawatts/m);
  assert.ok(
    page.markdown.includes(`[winter performance report](${corpus('/reports/pentland-2026.pdf')})`),
    page.markdown,
  );
  assert.ok(page.markdown.includes(`![A turbine being lowered from a barge](${corpus('/images/turbine.jpg')})`));
  assert.match(page.text, /generated 11\.4 gigawatt-hours between October and February/);
  for (const junk of ['ADVERTISEMENT', 'SCRIPT', 'Most read', 'Privacy', 'Subscribe', 'analytics']) {
    assert.ok(!page.markdown.includes(junk), `markdown has ${junk}`);
    assert.ok(!page.text.includes(junk), `text has ${junk}`);
  }
  const req = web.requests.find((r) => r.path === '/pages/tidal-energy.html');
  assert.equal(req?.host, `corpus.test:${web.port}`, 'the Host header names the host, not the address');
  assert.match(String(req?.headers['user-agent']), /Sextant/);
});

test('a guide with <base href>, code, a quote and a table; a Windows-1252 page; a link listing', async () => {
  const { fetcher } = setup();
  const guide = (await fetcher.fetch(corpus('/pages/sourdough-guide.html'))).page;
  // Readability keeps a site name after an em dash (it strips only after | - / > »).
  assert.equal(guide.title, 'Feeding a sourdough starter — The Patient Baker');
  assert.ok(guide.markdown.includes('[discard crackers](https://bakery.example/guides/crackers.html)'));
  assert.match(guide.markdown, /```\nfeedings = \[\]\ndef feed\(grams_flour, grams_water\):/);
  assert.match(guide.markdown, /^> A starter that doubles within six hours/m);
  assert.match(guide.markdown, /\*\*1:5:5\*\*/);
  assert.match(guide.text, /24 °C 12 hours/);
  assert.ok(!guide.text.includes('cookies'));

  const cafe = (await fetcher.fetch(corpus('/pages/cafe-latin1.html'))).page;
  assert.equal(cafe.title, 'Café society — a history');
  assert.match(cafe.text, /naïve students met seasoned journalists/);
  assert.match(cafe.text, /everybody’s order/);

  const listing = (await fetcher.fetch(corpus('/pages/link-listing.html'))).page;
  assert.equal(listing.title, 'Harbour notices');
  assert.ok(listing.markdown.includes(`[Fuel berth closed on Sunday](${corpus('/notices/fuel')})`), listing.markdown);
  assert.ok(!listing.text.includes('listing script'));
});

test('PDFs become text (by type or by their %PDF- header); text and JSON pass through', async () => {
  const { fetcher, loads } = setup();
  const pdf = (await fetcher.fetch(corpus('/docs/sample.pdf'))).page;
  assert.equal(pdf.contentType, 'application/pdf');
  assert.equal(pdf.title, 'Sextant PDF fixture');
  assert.match(pdf.text, /The quick brown fox jumps over the lazy dog\. Ünïcödé/);
  assert.match(pdf.markdown, /\[Page 2\]\n\nSecond page\nTotals: 42 apples, 7 pears\./);
  const sniffed = (await fetcher.fetch(corpus('/docs/unnamed'))).page;
  assert.match(sniffed.text, /Totals: 42 apples/);
  const notes = (await fetcher.fetch(corpus('/notes.txt'))).page;
  assert.equal(notes.markdown, 'Plain notes.\nLine two: 42.\n');
  assert.equal(notes.title, 'notes.txt');
  const json = (await fetcher.fetch(corpus('/data.json'))).page;
  assert.equal(json.markdown, '```json\n{\n  "name": "tides",\n  "height_m": 4.2\n}\n```');
  assert.equal(loads(), 0, 'the HTML bundle is not loaded for PDFs and text');
  await fetcher.fetch(corpus('/gzip'));
  await fetcher.fetch(corpus('/brotli'));
  assert.equal(loads(), 1, 'the HTML bundle is loaded once, on the first HTML page');
});

test('compressed pages are decompressed', async () => {
  const { fetcher } = setup();
  assert.match((await fetcher.fetch(corpus('/gzip'))).page.text, /Gzip worked fine/);
  assert.match((await fetcher.fetch(corpus('/brotli'))).page.text, /Brotli worked fine/);
});

test('unreadable content, empty pages and error statuses are clear errors', async () => {
  const { fetcher } = setup();
  const png = await failure(fetcher.fetch(corpus('/image.png')));
  assert.equal(png.code, 'unsupported');
  assert.match(png.message, /is image\/png, which web_fetch cannot read/);
  const empty = await failure(fetcher.fetch(corpus('/empty')));
  assert.equal(empty.code, 'empty');
  assert.match(empty.message, /no readable text \(it may be built by scripts in the browser\)/);
  const e500 = await failure(fetcher.fetch(corpus('/error')));
  assert.equal(e500.code, 'http');
  assert.match(e500.message, /answered 500 Internal Server Error\. The server failed/);
  assert.match(
    (await failure(fetcher.fetch(corpus('/missing')))).message,
    /answered 404 Not Found\. The page does not/,
  );
});

test('a redirect chain of 5 is followed (each hop re-checked); 6 is refused', async () => {
  const { fetcher } = setup();
  const { page } = await fetcher.fetch(corpus('/chain/5'));
  assert.equal(page.title, 'End of the chain');
  assert.equal(page.url, corpus('/chain/5'));
  assert.match(page.finalUrl, /\/chain\/0$/);
  const e = await failure(fetcher.fetch(corpus('/chain/6')));
  assert.equal(e.code, 'redirects');
  assert.match(e.message, /redirected more than 5 times/);
});

test('a redirect to a private address, a metadata address or another scheme is refused', async () => {
  const { fetcher } = setup();
  const before = web.requests.length;
  const toLoopback = await failure(
    fetcher.fetch(corpus(`/redirect?to=${encodeURIComponent(web.url('/pages/tidal-energy.html'))}`)),
  );
  assert.equal(toLoopback.code, 'blocked');
  assert.match(toLoopback.message, /127\.0\.0\.1:\d+ is a loopback address/);
  const toMeta = await failure(fetcher.fetch(corpus('/redirect?to=http://169.254.169.254/latest/meta-data/')));
  assert.match(toMeta.message, /metadata/);
  const toFile = await failure(fetcher.fetch(corpus('/redirect?to=file:///etc/passwd')));
  assert.equal(toFile.code, 'scheme');
  const served = web.requests.slice(before);
  assert.equal(served.length, 3, 'only the three redirecting pages were requested');
  assert.ok(served.every((r) => r.path.startsWith('/redirect')));
});

test('a page linking to private addresses is read, and its links are refused when followed', async () => {
  const { fetcher } = setup();
  const { page } = await fetcher.fetch(corpus('/pages/private-links.html'));
  assert.ok(page.markdown.includes('(http://192.168.1.1/admin)'));
  assert.ok(page.markdown.includes('(http://169.254.169.254/latest/meta-data/)'));
  for (const link of ['http://192.168.1.1/admin', 'http://169.254.169.254/latest/meta-data/'])
    assert.equal((await failure(fetcher.fetch(link))).code, 'blocked', link);
});

test('without allowPrivateHosts the corpus itself is refused; the list is read on every fetch', async () => {
  const s = setup();
  s.allow.hosts = [];
  const e = await failure(s.fetcher.fetch(corpus('/pages/tidal-energy.html')));
  assert.equal(e.code, 'blocked');
  assert.match(e.message, /corpus\.test resolves to 127\.0\.0\.1, a loopback address/);
  assert.equal((await failure(s.fetcher.fetch(web.url('/pages/tidal-energy.html')))).code, 'blocked');
  s.allow.hosts = ['127.0.0.1'];
  assert.equal((await s.fetcher.fetch(web.url('/pages/tidal-energy.html'))).page.title.startsWith('Tidal'), true);
});

test('pages over 10 MB are refused, whether declared, streamed or compressed', async () => {
  const { fetcher } = setup();
  for (const path of ['/huge', '/huge-chunked', '/gzip-bomb']) {
    const e = await failure(fetcher.fetch(corpus(path)));
    assert.equal(e.code, 'too_large', path);
    assert.match(e.message, /web_fetch reads at most 10 MB per page/, path);
  }
  const declared = await failure(fetcher.fetch(corpus('/huge')));
  assert.match(declared.message, /is 11 MB;/);
});

test('a page that never finishes, or never answers, times out; an abort stops a fetch', async () => {
  const { fetcher } = setup({ timeoutMs: 300 });
  for (const path of ['/slow', '/silent']) {
    const e = await failure(fetcher.fetch(corpus(path)));
    assert.equal(e.code, 'timeout', path);
    assert.match(e.message, /did not finish loading within 0\.3 s/);
  }
  const slow = setup({ timeoutMs: 60_000 });
  const ac = new AbortController();
  const pending = slow.fetcher.fetch(corpus('/slow'), { signal: ac.signal });
  const n = web.requests.length;
  while (web.requests.length === n) await new Promise((r) => setImmediate(r));
  ac.abort();
  assert.equal((await failure(pending)).code, 'aborted');
});

test('long Markdown is cut at the cap with a note', async () => {
  const { fetcher } = setup({ maxMarkdownChars: 600 });
  const { page } = await fetcher.fetch(corpus('/pages/tidal-energy.html'));
  assert.equal(page.truncated, true);
  assert.ok(page.markdown.length < 900);
  assert.match(page.markdown, /\[… the page continues: [\d,]+ more characters were cut here \(pages are capped at 600/);
  assert.match(page.text, /grid connection/, 'the text for citation checks is whole');
});

test('a page is served from the cache for 15 minutes (fragment ignored), then fetched again', async () => {
  const { fetcher, tick } = setup();
  const count = () => web.requests.filter((r) => r.path === '/counter').length;
  const start = count();
  const first = await fetcher.fetch(corpus('/counter'));
  assert.equal(first.fromCache, false);
  tick(14 * 60_000);
  const second = await fetcher.fetch(`${corpus('/counter')}#part-2`);
  assert.equal(second.fromCache, true);
  assert.equal(second.page, first.page);
  assert.equal(count(), start + 1);
  tick(60_000);
  const third = await fetcher.fetch(corpus('/counter'));
  assert.equal(third.fromCache, false);
  assert.equal(count(), start + 2);
  assert.notEqual(third.page.title, first.page.title);
});

test('the request connects to the vetted address: the host name is never looked up again', async () => {
  // rebind.invalid has no DNS entry anywhere: only the pinned address can make this work.
  const url = new URL(`http://rebind.invalid:${web.port}/host`);
  const res = await pinnedRequest(
    { url, host: 'rebind.invalid', address: '127.0.0.1', family: 4 },
    { signal: new AbortController().signal, headers: {} },
  );
  const chunks: Buffer[] = [];
  for await (const c of res.body) chunks.push(c as Buffer);
  assert.equal(Buffer.concat(chunks).toString(), `host=rebind.invalid:${web.port}`);
});

test('DNS rebinding: a name that answers public first and private next never reaches the private address', async () => {
  let lookups = 0;
  const rebinding: Resolver = async () => {
    lookups++;
    return [{ address: lookups === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
  };
  const connections: string[] = [];
  // The public address is played by a transport that answers with a redirect back to the same name
  // (no connection leaves the machine); a real connection is made only to the address it is given.
  const transport: Transport = async (target, opts) => {
    connections.push(target.address);
    if (target.address === '93.184.216.34') {
      const body = new PassThrough();
      body.end();
      return {
        status: 302,
        statusText: 'Found',
        headers: { location: `http://rebind.test:${web.port}/pages/tidal-energy.html` },
        body: body as unknown as PinnedResponse['body'],
      };
    }
    return pinnedRequest(target, opts);
  };
  const { fetcher } = setup({ resolve: rebinding, transport });
  const before = web.requests.length;
  const e = await failure(fetcher.fetch(`http://rebind.test:${web.port}/start`));
  assert.equal(e.code, 'blocked');
  assert.match(e.message, /rebind\.test resolves to 127\.0\.0\.1, a loopback address/);
  assert.deepEqual(connections, ['93.184.216.34'], 'no connection was made to the private address');
  assert.equal(lookups, 2, 'each hop was resolved once and checked');
  assert.equal(web.requests.length, before, 'the corpus (127.0.0.1) was never reached');
});

test('a page the converter cannot handle is a clear error; a failed bundle load is retried next time', async () => {
  const broken = setup({
    loadHtmlConverter: async () => ({
      htmlToMarkdown: () => {
        throw new Error('bad DOM');
      },
    }),
  });
  const e = await failure(broken.fetcher.fetch(corpus('/pages/tidal-energy.html')));
  assert.equal(e.code, 'empty');
  assert.match(e.message, /could not be read as a web page: bad DOM/);
  let attempts = 0;
  const flaky = setup({
    loadHtmlConverter: async () => {
      attempts++;
      if (attempts === 1) throw new Error('research-html.js is missing');
      return html;
    },
  });
  await assert.rejects(flaky.fetcher.fetch(corpus('/pages/tidal-energy.html')), /research-html\.js is missing/);
  assert.equal((await flaky.fetcher.fetch(corpus('/pages/tidal-energy.html'))).page.title.startsWith('Tidal'), true);
  assert.equal(attempts, 2);
});
