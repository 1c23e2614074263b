// Search keys bound to their provider's server (an endpoint override on another host asks first),
// the research settings, domain parsing, and the web_search tool as the agent loop runs it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide } from '../../../extension/core/permissions';
import { normalizeDomain, urlPassesDomains } from '../../../extension/core/web/search/domains';
import { isSearchError } from '../../../extension/core/web/search/errors';
import { searchKeyBindingName, searchKeySecretName } from '../../../extension/core/web/search/keys';
import { parseSearchSettings } from '../../../extension/core/web/search/settings';
import { createToolRegistry, inputJsonSchema, toolsForMode } from '../../../extension/core/tools/registry';
import { webSearchTool } from '../../../extension/core/tools/web-search';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';
import { startFakeExa } from '../../fixtures/research/fake-exa';
import { lastRequest, type FakeSearchServer } from '../../fixtures/research/fake-search-server';
import { KeyDirectory } from '../../../extension/engine/key-directory';
import { SEARCH_APIS } from '../../../extension/core/web/search/catalog';
import { SEARCH_PROVIDER_IDS } from '../../../extension/core/web/types';
import { memorySecrets, signal, testClient } from './helpers';
import { declaredToolFacts } from '../../../extension/core/tools/registry';

const KEY = 'exa-stored-key-0123456789';

describe('a search key goes only to the server it belongs to', () => {
  let exa: FakeSearchServer;
  before(async () => {
    exa = await startFakeExa({ key: KEY });
  });
  after(() => exa.close());

  test('a stored key and an endpoint override on another host: asked, declined, nothing sent', async () => {
    const secrets = memorySecrets({ [searchKeySecretName('exa')]: KEY });
    const t = testClient({ providers: ['exa'], endpoints: { exa: exa.baseUrl }, secrets, answer: 'no' });
    const before = exa.requests.length;
    try {
      await t.client.search({ query: 'javascript flatten' }, signal());
      assert.fail('expected a refusal');
    } catch (err) {
      assert.ok(isSearchError(err));
      assert.equal(err.failures[0].code, 'key_refused');
      assert.match(err.message, /did not send your Exa key to 127\.0\.0\.1:\d+: it was stored for api\.exa\.ai/);
      assert.match(err.message, /sextant\.research\.endpoints\.exa/);
      assert.ok(!err.message.includes(KEY));
    }
    assert.equal(exa.requests.length, before, 'the key never left');
    assert.deepEqual(
      t.asked.map((q) => [q.provider, q.boundHost, q.source]),
      [['Exa', 'api.exa.ai', 'stored']],
    );
    assert.equal(secrets.map.get(searchKeyBindingName('exa', { source: 'stored' })), 'https://api.exa.ai');
  });

  test('"Always for this host" rebinds the key; later clients do not ask again', async () => {
    const secrets = memorySecrets({ [searchKeySecretName('exa')]: KEY });
    const first = testClient({ providers: ['exa'], endpoints: { exa: exa.baseUrl }, secrets, answer: 'always' });
    assert.equal((await first.client.search({ query: 'javascript flatten' }, signal())).provider, 'exa');
    assert.equal(secrets.map.get(searchKeyBindingName('exa', { source: 'stored' })), exa.baseUrl);
    const second = testClient({ providers: ['exa'], endpoints: { exa: exa.baseUrl }, secrets, answer: 'no' });
    await second.client.search({ query: 'javascript flatten' }, signal());
    assert.deepEqual(second.asked, []);
  });

  test('an environment key: "Send once" holds for this client, which asks only once per run', async () => {
    const t = testClient({ providers: ['exa'], endpoints: { exa: exa.baseUrl }, env: { EXA_API_KEY: KEY } });
    await t.client.search({ query: 'javascript flatten' }, signal());
    await t.client.search({ query: 'javascript arrays' }, signal());
    assert.equal(t.asked.length, 1);
    assert.equal(t.asked[0].envName, 'EXA_API_KEY');
  });

  test("the provider's own server needs no question (fetch stubbed: no test reaches the internet)", async () => {
    const urls: string[] = [];
    const t = testClient({
      providers: ['exa'],
      endpoints: {},
      secrets: memorySecrets({ [searchKeySecretName('exa')]: KEY }),
      answer: 'no',
      extra: {
        fetch: async (url, init) => {
          urls.push(url);
          assert.equal(new Headers(init.headers).get('x-api-key'), KEY);
          return new Response(JSON.stringify({ requestId: 'r', results: [] }), { status: 200 });
        },
      },
    });
    const out = await t.client.search({ query: 'anything' }, signal());
    assert.deepEqual(out.results, []);
    assert.deepEqual(urls, ['https://api.exa.ai/search']);
    assert.deepEqual(t.asked, []);
  });

  test('a redirect is not followed with the key', async () => {
    const t = testClient({
      providers: ['exa'],
      endpoints: {},
      env: { EXA_API_KEY: KEY },
      extra: {
        fetch: async (_url, init) => {
          assert.equal(init.redirect, 'manual');
          return new Response('', { status: 307, headers: { location: 'https://elsewhere.example/search' } });
        },
      },
    });
    try {
      await t.client.search({ query: 'anything' }, signal());
      assert.fail('expected a failure');
    } catch (err) {
      assert.ok(isSearchError(err));
      assert.match(err.message, /redirect \(307\) to https:\/\/elsewhere\.example\/search; Sextant does not follow it/);
    }
  });
});

test('search key values (stored and from the environment) are among the values redacted everywhere', async () => {
  const secrets = memorySecrets({ [searchKeySecretName('tavily')]: 'tvly-stored-value-0123' });
  const dir = new KeyDirectory(
    secrets,
    () => [],
    { BRAVE_API_KEY: 'brave-env-value-4567', EXA_API_KEY: 'short' },
    () => SEARCH_PROVIDER_IDS.map((id) => ({ secret: searchKeySecretName(id), env: SEARCH_APIS[id].envVar })),
  );
  await dir.refresh();
  assert.deepEqual([...dir.secretValues()].sort(), ['brave-env-value-4567', 'tvly-stored-value-0123']);
});

describe('research settings', () => {
  test('searchProviders: an ordered subset; unknown names and duplicates reported and dropped', () => {
    assert.deepEqual(parseSearchSettings(undefined, undefined).providers, ['exa', 'tavily', 'brave', 'firecrawl']);
    const r = parseSearchSettings(['Brave', 'exa', 'google', 'brave'], undefined);
    assert.deepEqual(r.providers, ['brave', 'exa']);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0], /"google" is not a search provider/);
    assert.deepEqual(parseSearchSettings([], undefined).providers, []);
    assert.match(parseSearchSettings('exa', undefined).problems[0], /must be a list/);
  });

  test('endpoints: http(s) base URLs only, trailing slash dropped, bad entries reported', () => {
    const r = parseSearchSettings(undefined, {
      exa: 'https://proxy.example/exa/',
      tavily: 'ftp://x.example',
      brave: 'https://user:pw@proxy.example',
      firecrawl: 'http://127.0.0.1:3002',
      google: 'https://google.example',
    });
    assert.deepEqual(r.endpoints, { exa: 'https://proxy.example/exa', firecrawl: 'http://127.0.0.1:3002' });
    assert.equal(r.problems.length, 3);
    assert.ok(r.problems.some((p) => /tavily: "ftp:\/\/x\.example" is not an http\(s\) URL/.test(p)));
    assert.ok(r.problems.some((p) => /brave: must not carry a user name or password/.test(p)));
  });

  test('domains: URLs, wildcards and case are normalised; subdomains match, look-alikes do not', () => {
    assert.deepEqual(normalizeDomain('https://Docs.Python.org/3/library'), { ok: true, domain: 'docs.python.org' });
    assert.deepEqual(normalizeDomain('*.example.com'), { ok: true, domain: 'example.com' });
    assert.equal(normalizeDomain('localhost').ok, false);
    assert.equal(normalizeDomain('exa mple.com').ok, false);
    assert.ok(urlPassesDomains('https://a.b.example.com/x', ['example.com'], []));
    assert.ok(!urlPassesDomains('https://notexample.com/x', ['example.com'], []));
    assert.ok(!urlPassesDomains('https://example.com.evil.net/x', ['example.com'], []));
    assert.ok(!urlPassesDomains('https://ads.example.com/x', ['example.com'], ['ads.example.com']));
  });
});

describe('the web_search tool', () => {
  let exa: FakeSearchServer;
  before(async () => {
    exa = await startFakeExa({ key: KEY });
  });
  after(() => exa.close());

  test('returns a numbered list with URLs, dates and snippets, and says which providers were passed over', async () => {
    const root = await makeTempWorkspace();
    const t = testClient({ providers: ['tavily', 'exa'], endpoints: { exa: exa.baseUrl }, env: { EXA_API_KEY: KEY } });
    const ctx = makeContext({ ...createNodePorts({ root }), webSearch: t.client });
    const reg = createToolRegistry([webSearchTool]);
    const args = { query: 'javascript flatten array', allowed_domains: ['developer.mozilla.org', 'nodejs.org'] };
    const r = await reg.execute(reg.prepare({ id: '1', name: 'web_search', argumentsJson: JSON.stringify(args) }), ctx);
    assert.equal(r.isError, false);
    const text = textOf(r);
    assert.match(text, /^Exa results for "javascript flatten array":\n1\. Array\.prototype\.flat\(\)/);
    assert.match(text, / {3}https:\/\/developer\.mozilla\.org\/en-US\/docs\/Web\/JavaScript/);
    assert.match(text, /published 2025-03-14 — The flat\(\) method/);
    assert.match(text, /\(Tavily was not used: no API key \(TAVILY_API_KEY/);
    assert.ok(!text.includes('stackoverflow.com'));
    assert.match(r.forUi, /^1 result from Exa\n/);
    assert.deepEqual((lastRequest(exa).body as { includeDomains: string[] }).includeDomains, [
      'developer.mozilla.org',
      'nodejs.org',
    ]);
  });

  test('without keys the result is an error that says what to configure', async () => {
    const root = await makeTempWorkspace();
    const t = testClient({ providers: ['exa', 'brave'], endpoints: {} });
    const reg = createToolRegistry([webSearchTool]);
    const call = reg.prepare({ id: '1', name: 'web_search', argumentsJson: '{"query":"rust async"}' });
    const r = await reg.execute(call, makeContext({ ...createNodePorts({ root }), webSearch: t.client }));
    assert.equal(r.isError, true);
    assert.match(textOf(r), /Run "Sextant: Set Search API Key".*EXA_API_KEY, BRAVE_API_KEY/s);
    const none = await reg.execute(call, makeContext(createNodePorts({ root })));
    assert.match(textOf(none), /^web_search is not available here\. .*Set Search API Key/);
  });

  test('a bad domain goes back to the model to fix', async () => {
    const root = await makeTempWorkspace();
    const t = testClient({ providers: ['exa'], endpoints: { exa: exa.baseUrl }, env: { EXA_API_KEY: KEY } });
    const reg = createToolRegistry([webSearchTool]);
    const args = { query: 'rust async', blocked_domains: ['http://'] };
    const r = await reg.execute(
      reg.prepare({ id: '1', name: 'web_search', argumentsJson: JSON.stringify(args) }),
      makeContext({ ...createNodePorts({ root }), webSearch: t.client }),
    );
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^blocked_domains: "http:\/\/" is not a domain name/);
  });

  test('asks in Agent mode unless a rule allows it; a deny rule on the query refuses it', () => {
    const base = { workspaceFolders: ['/ws'], home: '/home/u', tools: declaredToolFacts() };
    const call = { tool: 'web_search', input: { query: 'vitest config' } };
    assert.equal(decide(call, createPolicy(base)).decision, 'ask');
    assert.equal(decide(call, createPolicy({ ...base, user: { allow: ['web_search'] } })).decision, 'allow');
    assert.equal(decide(call, createPolicy({ ...base, user: { deny: ['web_search(*secret*)'] } })).decision, 'ask');
    const secret = { tool: 'web_search', input: { query: 'our secret roadmap' } };
    assert.equal(decide(secret, createPolicy({ ...base, user: { deny: ['web_search(*secret*)'] } })).decision, 'deny');
    assert.equal(webSearchTool.kind, 'network');
  });

  test('its provider argument lists exactly the known providers', () => {
    const schema = inputJsonSchema(webSearchTool) as { properties: { provider: { enum: string[] } } };
    assert.deepEqual(schema.properties.provider.enum, [...SEARCH_PROVIDER_IDS]);
  });

  test('Agent mode is built with it', () => {
    assert.ok(toolsForMode('agent', { trusted: true }).some((t) => t.name === 'web_search'));
  });
});
