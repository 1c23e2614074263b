// Each search provider against a fake of its API that checks the key header and the request shape the
// way the real API does: what is sent (auth, fields, domain filters), how answers map to SearchResult,
// and what each kind of error body becomes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isSearchError, type SearchError } from '../../../extension/core/web/search/errors';
import type { SearchProviderId } from '../../../extension/core/web/types';
import type { WebSearchRequest } from '../../../extension/core/ports';
import { startFakeBrave } from '../../fixtures/research/fake-brave';
import { startFakeExa } from '../../fixtures/research/fake-exa';
import { startFakeFirecrawl } from '../../fixtures/research/fake-firecrawl';
import { lastRequest, type FakeSearchServer } from '../../fixtures/research/fake-search-server';
import { startFakeTavily } from '../../fixtures/research/fake-tavily';
import { signal, testClient } from './helpers';

const KEYS: Record<SearchProviderId, string> = {
  exa: 'exa-test-key-0123456789abcdef',
  tavily: 'tvly-dev-0123456789abcdefghijkl',
  brave: 'BSAtestkey0123456789abcdefghij',
  firecrawl: 'fc-0123456789abcdef0123456789abcdef',
};
const ENV_NAMES: Record<SearchProviderId, string> = {
  exa: 'EXA_API_KEY',
  tavily: 'TAVILY_API_KEY',
  brave: 'BRAVE_API_KEY',
  firecrawl: 'FIRECRAWL_API_KEY',
};
const STARTERS = { exa: startFakeExa, tavily: startFakeTavily, brave: startFakeBrave, firecrawl: startFakeFirecrawl };

async function rejectsWith(p: Promise<unknown>): Promise<SearchError> {
  try {
    await p;
  } catch (err) {
    assert.ok(isSearchError(err), `expected a SearchError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the search to fail');
}

for (const id of ['exa', 'tavily', 'brave', 'firecrawl'] as SearchProviderId[]) {
  describe(`${id} against its fake API`, () => {
    let fake: FakeSearchServer;
    before(async () => {
      fake = await STARTERS[id]({ key: KEYS[id] });
    });
    after(() => fake.close());

    const client = (env: Record<string, string> = { [ENV_NAMES[id]]: KEYS[id] }) =>
      testClient({ providers: [id], endpoints: { [id]: fake.baseUrl }, env });
    const search = (t: ReturnType<typeof client>, req: Partial<WebSearchRequest> = {}) =>
      t.client.search({ query: 'javascript flatten array', ...req }, signal());

    test('sends the key the way the API wants it and maps the answer to SearchResult', async () => {
      const t = client();
      const out = await search(t, { maxResults: 3 });
      assert.equal(out.provider, id);
      assert.equal(out.results.length, 3);
      for (const r of out.results) {
        assert.equal(r.source, id);
        assert.match(r.url, /^https:\/\//);
        assert.ok(r.title.length > 0);
        assert.ok(!/<strong>|&amp;/.test(`${r.title} ${r.snippet}`), `no markup left: ${r.title} ${r.snippet}`);
      }
      const mdn = out.results.find((r) => r.url.includes('developer.mozilla.org'));
      assert.ok(mdn);
      assert.match(mdn.snippet, /flat\(\) method/);
      if (id === 'exa' || id === 'brave') assert.equal(mdn.publishedAt, '2025-03-14T08:00:00.000Z');
      const blog = out.results.find((r) => r.url.includes('blog.example.com'));
      assert.equal(blog?.title, 'Flattening arrays in JavaScript & TypeScript');
      const req = fake.requests.at(-1);
      assert.equal(req?.status, 200);
      if (id === 'brave') assert.equal(req?.query.count, '3');
    });

    test('passes domain filters and keeps only matching hosts', async () => {
      const t = client();
      const out = await search(t, { allowedDomains: ['https://developer.mozilla.org/docs', 'example.com'] });
      assert.ok(out.results.length >= 2);
      assert.ok(
        out.results.every((r) => /(^|\.)developer\.mozilla\.org$|(^|\.)example\.com$/.test(new URL(r.url).hostname)),
      );
      const blocked = await search(t, { blockedDomains: ['example.com'] });
      assert.ok(blocked.results.length > 0);
      assert.ok(blocked.results.every((r) => !/example\.com$/.test(new URL(r.url).hostname)));
      const sent = lastRequest(fake);
      if (id === 'exa') assert.deepEqual((sent.body as { excludeDomains: string[] }).excludeDomains, ['example.com']);
      if (id === 'tavily')
        assert.deepEqual((sent.body as { exclude_domains: string[] }).exclude_domains, ['example.com']);
      if (id === 'firecrawl')
        assert.deepEqual((sent.body as { excludeDomains: string[] }).excludeDomains, ['example.com']);
      if (id === 'brave') assert.match(sent.query.q, /-site:example\.com/);
    });

    test('a recency window goes to the API in its own form; older dated results are dropped', async () => {
      const t = client();
      t.clock.t = Date.UTC(2025, 5, 1);
      const out = await search(t, { recencyDays: 120 });
      const sent = lastRequest(fake);
      assert.equal(sent.status, 200);
      // Exa and Brave take the exact day, Firecrawl Google's custom range, Tavily the covering range.
      if (id === 'exa')
        assert.equal((sent.body as { startPublishedDate: string }).startPublishedDate, '2025-02-01T00:00:00.000Z');
      if (id === 'brave') assert.equal(sent.query.freshness, '2025-02-01to2025-06-01');
      if (id === 'firecrawl') assert.equal((sent.body as { tbs: string }).tbs, 'cdr:1,cd_min:2/1/2025');
      if (id === 'tavily') assert.equal((sent.body as { time_range: string }).time_range, 'year');
      // The fakes ignore the window, as a proxy might: the client holds it for dated results (the blog's
      // 2024-11-02 is older). Tavily's and Firecrawl's results carry no date: only their own window applies.
      assert.ok(out.results.length > 0);
      const dated = id === 'exa' || id === 'brave';
      assert.equal(
        out.results.some((r) => r.url.includes('blog.example.com')),
        !dated,
        JSON.stringify(out.results),
      );
    });

    test('both lists at once: the API accepts the request and blocked hosts are dropped', async () => {
      const t = client();
      const out = await search(t, { allowedDomains: ['example.com'], blockedDomains: ['blog.example.com'] });
      assert.deepEqual(
        out.results.map((r) => r.url),
        ['https://example.com/arrays'],
      );
      assert.equal(fake.requests.at(-1)?.status, 200);
    });

    test('a wrong key: the API refuses it and the message says what to set, without the key', async () => {
      const t = client({ [ENV_NAMES[id]]: 'wrong-key-0123456789' });
      const e = await rejectsWith(search(t));
      assert.equal(e.code, 'all_failed');
      assert.equal(e.failures[0].code, 'auth');
      assert.match(e.message, /Set Search API Key/);
      assert.match(e.message, new RegExp(ENV_NAMES[id]));
      assert.ok(!e.message.includes('wrong-key-0123456789'));
      assert.ok(fake.requests.at(-1)?.status === 401 || fake.requests.at(-1)?.status === 422);
    });

    test("the provider's error body reaches the message", async () => {
      fake.script({ error: 'quota' });
      const e = await rejectsWith(search(client()));
      assert.equal(e.failures[0].code, 'quota');
      const said = {
        exa: /run out of credits/,
        tavily: /exceeds your plan/,
        brave: /quota of the plan/,
        firecrawl: /Insufficient credits/,
      }[id];
      assert.match(e.message, said);
    });

    test('429 with retry-after: waits as asked, then gets the results', async () => {
      fake.script({ error: 'rate_limit', retryAfter: '7' });
      const t = client();
      const before = fake.requests.length;
      const out = await search(t);
      assert.ok(out.results.length > 0);
      assert.equal(fake.requests.length - before, 2);
      assert.equal(fake.requests.at(-2)?.status, 429);
      assert.ok(t.clock.sleeps.includes(7000), `waited ${t.clock.sleeps.join(', ')} ms`);
    });

    test('500 is retried with backoff; three in a row fail with the server error', async () => {
      fake.script({ error: 'server' }, 'ok');
      const t = client();
      assert.ok((await search(t)).results.length > 0);
      assert.ok(
        t.clock.sleeps.some((ms) => ms >= 250 && ms <= 500),
        `backoff ${t.clock.sleeps.join(', ')}`,
      );
      fake.script({ error: 'server' }, { error: 'server' }, { error: 'server' });
      const e = await rejectsWith(search(client()));
      assert.equal(e.failures[0].code, 'server');
      assert.match(e.message, /server error \(500\)/);
    });

    test('an HTML page where the API should be is a bad endpoint, not results', async () => {
      fake.script({ status: 200, text: '<html><body>Welcome to nginx</body></html>' });
      const e = await rejectsWith(search(client()));
      assert.equal(e.failures[0].code, 'bad_response');
      assert.match(e.message, new RegExp(`sextant\\.research\\.endpoints\\.${id}`));
    });
  });
}

describe('request shapes only a real API would reject', () => {
  test('Brave: site: operators that would push the query past 400 characters are left out', async () => {
    const brave = await startFakeBrave({ key: KEYS.brave });
    try {
      const t = testClient({
        providers: ['brave'],
        endpoints: { brave: brave.baseUrl },
        env: { BRAVE_API_KEY: KEYS.brave },
      });
      const long = `javascript flatten array ${'x'.repeat(360)}`;
      const out = await t.client.search({ query: long, allowedDomains: ['stackoverflow.com'] }, signal());
      assert.equal(brave.requests.at(-1)?.status, 200);
      assert.equal(brave.requests.at(-1)?.query.q, long);
      assert.equal(brave.requests.at(-1)?.query.count, '20');
      assert.ok(out.results.every((r) => r.url.startsWith('https://stackoverflow.com/')));
    } finally {
      await brave.close();
    }
  });

  test('Tavily: more than 20 results is capped at the API limit', async () => {
    const tavily = await startFakeTavily({ key: KEYS.tavily });
    try {
      const t = testClient({
        providers: ['tavily'],
        endpoints: { tavily: tavily.baseUrl },
        env: { TAVILY_API_KEY: KEYS.tavily },
      });
      await t.client.search({ query: 'javascript', maxResults: 50 }, signal());
      assert.equal((lastRequest(tavily).body as { max_results: number }).max_results, 20);
      assert.equal(tavily.requests.at(-1)?.status, 200);
    } finally {
      await tavily.close();
    }
  });
});
