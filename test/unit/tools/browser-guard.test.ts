// The browser's pure parts: which browser is found where (no download, the setting first), and the
// guard's answers for the connections a page opens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findBrowser } from '../../../extension/platform/browser/find-browser';
import { browserConnectionGuard, originOf } from '../../../extension/core/tools/browser/guard';
import { browserDeclarations } from '../../../extension/core/tools/browser/tools';
import { testResolve } from '../../fixtures/browser/site';

test('findBrowser: the setting first, then the usual places per OS, then PATH; a clear message otherwise', () => {
  const has =
    (...paths: string[]) =>
    (p: string) =>
      paths.includes(p);
  assert.deepEqual(findBrowser({ configured: '/opt/my/chrome', exists: has('/opt/my/chrome') }), {
    path: '/opt/my/chrome',
  });
  const bad = findBrowser({ configured: '/nope', exists: has('/usr/bin/chromium') });
  assert.ok('problem' in bad && /sextant\.browser\.executablePath is "\/nope"/.test(bad.problem));
  assert.deepEqual(findBrowser({ platform: 'linux', env: {}, exists: has('/usr/bin/google-chrome') }), {
    path: '/usr/bin/google-chrome',
  });
  assert.deepEqual(findBrowser({ platform: 'linux', env: { PATH: '/a:/b' }, exists: has('/b/chromium-browser') }), {
    path: '/b/chromium-browser',
  });
  const mac = findBrowser({
    platform: 'darwin',
    env: { HOME: '/Users/u' },
    exists: has('/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'),
  });
  assert.deepEqual(mac, { path: '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge' });
  const none = findBrowser({ platform: 'linux', env: { PATH: '/x' }, exists: () => false });
  assert.ok('problem' in none && /never downloads.*apt-get install chromium.*executablePath/s.test(none.problem));
});

test('the connection guard: allowed hosts pinned to their address, private ones refused with the setting', async () => {
  const guard = browserConnectionGuard({ allowPrivateHosts: () => ['site.test'], resolve: testResolve });
  assert.deepEqual(await guard({ host: 'site.test', port: 8080, scheme: 'http' }), { ok: true, address: '127.0.0.1' });
  const evil = await guard({ host: 'evil.test', port: 443, scheme: 'https' });
  assert.ok(!evil.ok && /evil\.test resolves to 127\.0\.0\.1.*the browser does not reach/.test(evil.reason));
  const local = await guard({ host: 'localhost', port: 3000, scheme: 'http' });
  assert.ok(!local.ok && /add "localhost" to sextant\.web\.allowPrivateHosts/.test(local.reason));
  const meta = await guard({ host: '169.254.169.254', port: 80, scheme: 'http' });
  assert.ok(!meta.ok && /metadata/.test(meta.reason));
  const v6 = await guard({ host: '::1', port: 80, scheme: 'http' });
  assert.equal(v6.ok, false);
  const own = await guard({ host: 'update.googleapis.com', port: 443, scheme: 'https' });
  assert.ok(!own.ok && own.quiet === true, "the browser's own background service is refused quietly");
  assert.equal((await guard({ host: 'site.test', port: 0, scheme: 'http' })).ok, false);
});

test('declarations: navigate is judged by URL, the hands are Agent-only, Research only opens and reads', () => {
  const d = browserDeclarations;
  assert.equal(d.navigate.permission.subject, 'url');
  assert.equal(d.navigate.kind, 'network');
  assert.deepEqual([...d.navigate.modes], ['agent', 'research']);
  for (const reader of [d.snapshot, d.screenshot, d.console, d.close]) assert.equal(reader.kind, 'read');
  for (const reader of [d.snapshot, d.close]) assert.deepEqual([...reader.modes], ['agent', 'research']);
  for (const agentOnly of [d.click, d.type, d.screenshot, d.console]) assert.deepEqual([...agentOnly.modes], ['agent']);
  assert.equal(originOf('http://site.test:8080/a?b'), 'http://site.test:8080');
  assert.equal(originOf('about:blank'), undefined);
});
