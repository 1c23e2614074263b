// The browser tools against a local site, driving Debian's chromium through playwright-core (the
// backend the extension ships): navigate, the snapshot the model reads, click and type by ref, a
// screenshot as an image part, the guard on the URL and on every connection the page opens, a page
// that hangs, Stop and the end of the session closing the browser (no process left).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createBrowserBackend, profileProcesses } from '../../../extension/platform/browser/playwright-backend';
import { findBrowser } from '../../../extension/platform/browser/find-browser';
import { BrowserSessions } from '../../../extension/core/tools/browser/session';
import { createBrowserTools } from '../../../extension/core/tools/browser/tools';
import { createToolSessionState, disposeToolSession } from '../../../extension/core/tools/registry';
import type { AnyTool, ToolResult, ToolSessionState } from '../../../extension/core/tools/types';
import { sniffImage } from '../../../extension/core/tools/util/images';
import { makeContext, textOf } from '../../fixtures/node-ports';
import { startTestSite, testResolve, type TestSite } from '../../fixtures/browser/site';

const found = findBrowser();
const skip = 'problem' in found ? `no Chromium on this machine (${found.problem})` : false;
if (skip) console.log(`# browser tests skipped: ${skip}`);

let site: TestSite;
const sessions = new BrowserSessions({
  allowPrivateHosts: () => ['site.test'],
  resolve: testResolve,
  settings: () => ({ headless: true }),
  loadBackend: async () => createBrowserBackend(),
});
const tools = createBrowserTools({ sessions, timeouts: { navigationMs: 4000, actionMs: 4000 } });
const tool = (name: string): AnyTool => {
  const t = tools.find((x) => x.name === `browser_${name}`);
  if (!t) throw new Error(`no tool browser_${name}`);
  return t;
};
const url = (path: string) => `http://site.test:${site.port}${path}`;

function run(name: string, input: unknown, session: ToolSessionState, o: { supportsImages?: boolean } = {}) {
  const ctx = makeContext({} as never, { session, supportsImages: o.supportsImages ?? false });
  return { ctx, result: tool(name).execute(input, ctx) as Promise<ToolResult> };
}
const call = (name: string, input: unknown, session: ToolSessionState, o?: { supportsImages?: boolean }) =>
  run(name, input, session, o).result;

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 2000; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

before(async () => {
  site = await startTestSite();
});
after(async () => {
  await sessions.closeAll();
  await site.close();
});

test('navigate returns the accessibility snapshot; click and type act by ref; the form answers', { skip }, async () => {
  const session = createToolSessionState('browse');
  try {
    const opened = await call('navigate', { url: url('/') }, session);
    const text = textOf(opened);
    assert.equal(opened.isError, false, text);
    assert.match(text, /Page: Test shop/);
    assert.match(text, /heading "Welcome to the test shop" \[level=1\] \[ref=e\d+\]/);
    const field = /textbox "Your name" \[ref=(e\d+)\]/.exec(text)?.[1];
    const add = /button "Add one" \[ref=(e\d+)\]/.exec(text)?.[1];
    assert.ok(field && add, text);

    const typed = textOf(await call('type', { ref: field, text: 'Ada', submit: true, element: 'name field' }, session));
    assert.match(typed, /Typed into name field and pressed Enter/);
    assert.match(typed, /Hello, Ada!/);

    const clicked = textOf(await call('click', { ref: add, element: 'Add one' }, session));
    assert.match(clicked, /Clicked Add one/);
    assert.match(clicked, /Count: 1|text: "1"|: "1"/);

    const snap = textOf(await call('snapshot', {}, session));
    assert.match(snap, /Hello, Ada!/);
    const logged = textOf(await call('console', {}, session));
    assert.match(logged, /\[error\] boom from the test page/);

    const stale = await call('click', { ref: 'e999' }, session);
    assert.equal(stale.isError, true);
    assert.match(textOf(stale), /Could not click e999.*new browser_snapshot/s);
    assert.deepEqual(site.strays(), [], 'only site.test was reached');
  } finally {
    disposeToolSession(session);
  }
});

test('a screenshot is an image part for a vision model and a plain note for a text-only one', { skip }, async () => {
  const session = createToolSessionState('shots');
  try {
    await call('navigate', { url: url('/') }, session);
    const shot = await call('screenshot', {}, session, { supportsImages: true });
    assert.equal(shot.isError, false);
    assert.ok(Array.isArray(shot.forModel));
    const image = shot.forModel.find((b) => b.type === 'image');
    assert.ok(image && image.type === 'image');
    assert.equal(image.mediaType, 'image/jpeg');
    const info = sniffImage(Buffer.from(image.dataBase64, 'base64'));
    assert.deepEqual([info?.mediaType, info?.width, info?.height], ['image/jpeg', 1280, 800]);
    const full = await call('screenshot', { full_page: true }, session, { supportsImages: true });
    const fullImage = Array.isArray(full.forModel) ? full.forModel.find((b) => b.type === 'image') : undefined;
    assert.ok(fullImage && fullImage.type === 'image');
    assert.ok((sniffImage(Buffer.from(fullImage.dataBase64, 'base64'))?.height ?? 0) <= 2400, 'bounded height');

    const blind = await call('screenshot', {}, session, { supportsImages: false });
    assert.equal(typeof blind.forModel, 'string');
    assert.match(textOf(blind), /cannot view images.*browser_snapshot/s);
  } finally {
    disposeToolSession(session);
  }
});

test('private hosts are refused before anything launches, with the setting that allows them', async () => {
  const session = createToolSessionState('refused');
  for (const target of ['http://localhost:3000/', 'http://127.0.0.1:8080/', 'http://10.1.2.3/', 'file:///etc/passwd']) {
    const r = await call('navigate', { url: target }, session);
    assert.equal(r.isError, true, target);
    assert.match(textOf(r), /Not opened/);
  }
  const local = textOf(await call('navigate', { url: 'http://localhost:3000/' }, session));
  assert.match(local, /add "localhost" to sextant\.web\.allowPrivateHosts/);
  assert.match(textOf(await call('navigate', { url: 'http://169.254.169.254/' }, session)), /metadata/);
  assert.equal(sessions.peek(session)?.page, undefined, 'no browser was started');
});

test('every connection the page opens goes through the guard: nothing reaches a private host', { skip }, async () => {
  const session = createToolSessionState('leaky');
  try {
    const opened = await call('navigate', { url: url('/leaky') }, session);
    let seen = textOf(opened);
    assert.equal(opened.isError, false, seen);
    // fetch, XHR, the redirect and the WebSocket fail asynchronously: wait until the page says so.
    await until('the page to see its attempts fail', async () => {
      seen += textOf(await call('snapshot', {}, session));
      return ['fetch blocked', 'xhr blocked', 'ws blocked', 'redirect blocked'].every((m) => seen.includes(m));
    });
    assert.doesNotMatch(seen, /reached/);
    assert.match(seen, /Blocked \d+ connection\(s\)/);
    assert.match(seen, /evil\.test:\d+.*private, local or internal/);
    assert.match(seen, /localhost/);
    assert.deepEqual(site.strays(), [], 'no request arrived for evil.test, localhost or 127.0.0.1');
    assert.ok(
      site.requests.some((r) => r.path.startsWith('/redirect-evil')),
      'the allowed hop was made',
    );

    // A top-level redirect to a private host is refused too.
    const hop = await call('navigate', { url: url('/redirect-evil?from=navigate') }, session);
    assert.equal(hop.isError, true);
    assert.match(textOf(hop), /evil\.test/);
    assert.deepEqual(site.strays(), []);
  } finally {
    disposeToolSession(session);
  }
});

test('a page that hangs times out with a clear message; the browser stays usable', { skip }, async () => {
  const session = createToolSessionState('hang');
  try {
    const r = await call('navigate', { url: url('/hang') }, session);
    assert.equal(r.isError, true);
    assert.match(textOf(r), /did not finish loading within 4 s/);
    const again = await call('navigate', { url: url('/second') }, session);
    assert.match(textOf(again), /The second page/);
  } finally {
    disposeToolSession(session);
  }
});

test('Stop closes the browser: no process of its profile is left, and the profile is removed', { skip }, async () => {
  const session = createToolSessionState('stop');
  await call('navigate', { url: url('/') }, session);
  const page = sessions.peek(session)?.page;
  assert.ok(page);
  const profile = page.info.profileDir;
  assert.ok(profileProcesses(profile).length > 0, 'the browser runs');
  const before = site.requests.filter((r) => r.path === '/hang').length;
  const { ctx, result } = run('navigate', { url: url('/hang') }, session);
  await until('the hanging request', () => site.requests.filter((r) => r.path === '/hang').length > before);
  ctx.controller.abort();
  const stopped = await result;
  assert.equal(stopped.isError, true);
  assert.match(textOf(stopped), /Stop/);
  await until('the browser to close', () => sessions.peek(session)?.page === undefined && page.closed.then(() => true));
  await until('no process of the profile', () => profileProcesses(profile).length === 0);
  await until('the profile removed', () => !existsSync(profile));
  const after = await call('snapshot', {}, session);
  assert.match(textOf(after), /closed when the user pressed Stop.*browser_navigate/s);
});

test('the end of the chat session closes its browser', { skip }, async () => {
  const session = createToolSessionState('end');
  await call('navigate', { url: url('/second') }, session);
  const page = sessions.peek(session)?.page;
  assert.ok(page);
  const profile = page.info.profileDir;
  disposeToolSession(session);
  await page.closed;
  await until('no process of the profile', () => profileProcesses(profile).length === 0);
});

test('the browser closes after its idle time', { skip }, async () => {
  const idle = new BrowserSessions({ ...sessions.deps, idleMs: 300 });
  const idleTools = createBrowserTools({ sessions: idle });
  const session = createToolSessionState('idle');
  const nav = idleTools.find((t) => t.name === 'browser_navigate') as AnyTool | undefined;
  assert.ok(nav);
  await nav.execute({ url: url('/second') }, makeContext({} as never, { session }));
  const page = idle.peek(session)?.page;
  assert.ok(page);
  await page.closed;
  assert.match(idle.peek(session)?.takeEndNote() ?? '', /closed after 300 ms unused/);
});
