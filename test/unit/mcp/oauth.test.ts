// OAuth for a remote MCP server against a local fake authorization server: discovery, dynamic client
// registration, PKCE, the browser's redirect back (state checked), tokens kept in the secrets port,
// the MCP requests carrying the token, and a refresh when the access token stops working — no second
// sign-in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpOAuthProvider, type OAuthHost } from '../../../extension/core/mcp/oauth';
import type { SecretsPort } from '../../../extension/core/ports';
import { startTestHttpServer } from '../../fixtures/mcp/http-server';
import { fakeAuthServer } from '../../fixtures/mcp/fake-oauth';
import { createManager, none, source, until } from './harness';

function memorySecrets(): SecretsPort & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: async (k) => data.get(k),
    set: async (k, v) => void data.set(k, v),
    delete: async (k) => void data.delete(k),
  };
}

test('OAuth: discovery, registration, PKCE, redirect, tokens in secrets, refresh', async () => {
  const auth = fakeAuthServer();
  const server = await startTestHttpServer({ before: auth.before });
  auth.origin = new URL(server.url).origin;
  const secrets = memorySecrets();
  const providers = new Map<string, McpOAuthProvider>();
  let opened = 0;
  const host: OAuthHost = {
    secrets,
    redirectUrl: 'vscode://sextant.sextant/mcp-oauth',
    // The "browser": follows the authorization URL to its redirect and hands it to the URI handler.
    openAuthorizationPage: async (url, name) => {
      opened++;
      const res = await fetch(url, { redirect: 'manual' });
      const back = new URL(res.headers.get('location') ?? '');
      const wrong = new URLSearchParams(back.searchParams);
      wrong.set('state', 'forged');
      assert.equal(providers.get(name)?.receiveRedirect(wrong), false, 'a redirect with another state is ignored');
      assert.equal(providers.get(name)?.receiveRedirect(back.searchParams), true);
    },
    log: () => undefined,
  };
  const authProviderFor = (name: string, url: string) => {
    const p = new McpOAuthProvider(name, url, host);
    providers.set(name, p);
    return p;
  };
  try {
    const { manager } = createManager({ authProviderFor });
    manager.setSources({ workspace: none, user: source({ remote: { type: 'http', url: server.url } }) });
    await manager.prepare();
    await until(() => manager.views()[0].state === 'connected', 'connected after sign-in');
    assert.equal(opened, 1);
    assert.equal(auth.registrations, 1);
    const stored = [...secrets.data.keys()];
    assert.ok(stored.some((k) => k.endsWith('.tokens')) && stored.some((k) => k.endsWith('.client')));
    assert.ok(
      server.authorizations.some((a) => a.startsWith('Bearer at-')),
      'MCP requests carry the token',
    );
    const ctx = { signal: new AbortController().signal, progress() {}, supportsImages: false } as never;
    assert.match(String((await manager.callTool('remote', 'echo', { text: 'authed' }, ctx)).forModel), /echo: authed/);
    await manager.dispose();

    // The access token stops working: the next start refreshes it, with no second sign-in.
    auth.revoke();
    const again = createManager({ authProviderFor });
    again.manager.setSources({ workspace: none, user: source({ remote: { type: 'http', url: server.url } }) });
    await again.manager.prepare();
    await until(() => again.manager.views()[0].state === 'connected', 'connected after refresh');
    assert.equal(auth.refreshes, 1);
    assert.equal(opened, 1, 'no second sign-in');
    assert.equal(auth.registrations, 1, 'the registered client is reused');
    await again.manager.dispose();
  } finally {
    await server.close();
  }
});

test('a static bearer token from the secrets port is sent without any sign-in', async () => {
  const auth = fakeAuthServer();
  const server = await startTestHttpServer({ before: auth.before });
  auth.origin = new URL(server.url).origin;
  auth.validTokens.add('static-token-1');
  const secrets = memorySecrets();
  let opened = 0;
  const host: OAuthHost = {
    secrets,
    redirectUrl: 'vscode://sextant.sextant/mcp-oauth',
    openAuthorizationPage: async () => void opened++,
    log: () => undefined,
  };
  try {
    const provider = new McpOAuthProvider('remote', server.url, host);
    await provider.setBearerToken('static-token-1');
    const { manager } = createManager({ authProviderFor: () => provider });
    manager.setSources({ workspace: none, user: source({ remote: { type: 'http', url: server.url } }) });
    await manager.prepare();
    assert.equal(manager.views()[0].state, 'connected');
    assert.equal(opened, 0);
    assert.equal(auth.registrations, 0);
    assert.ok(server.authorizations.every((a) => a === 'Bearer static-token-1'));
    await manager.dispose();
  } finally {
    await server.close();
  }
});
