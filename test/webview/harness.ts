// Runs the built chat view (dist/webview.js + .css) in headless Chromium inside the real HTML
// shell and CSP (buildWebviewHtml), served from 127.0.0.1, with a stub acquireVsCodeApi that
// records every post and lets a test play the host. Nothing may leave 127.0.0.1: every other
// request is recorded and refused.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../fixtures/chromium';
import { buildWebviewHtml } from '../../extension/vscode/webview-html';
import type { Inbound, Outbound } from '../../extension/protocol';

export { launchChromium };

const ROOT = process.cwd();

/** Serves the shell at / and dist/ files; the origin plays the part of webview.cspSource. */
export async function startViewServer(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // `/usage`: the same bundle and CSP as the Usage panel (usage-panel.ts) builds them.
    if (url.pathname === '/' || url.pathname === '/usage') {
      const origin = `http://${req.headers.host}`;
      const html = buildWebviewHtml({
        scriptUri: `${origin}/dist/webview.js`,
        styleUri: `${origin}/dist/webview.css`,
        cspSource: origin,
        nonce: randomBytes(18).toString('base64'),
        view: url.pathname === '/usage' ? 'usage' : 'chat',
      });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    const m = /^\/dist\/(webview\.(?:js|css)|webview-chunks\/[\w-]+\.js)$/.exec(url.pathname);
    if (m) {
      res.writeHead(200, { 'content-type': m[1].endsWith('.js') ? 'text/javascript' : 'text/css' });
      res.end(readFileSync(join(ROOT, 'dist', m[1])));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { origin: `http://127.0.0.1:${address.port}`, server };
}

/** Runs in the page before our bundle: the VS Code API stub and the probes tests read. */
function installStub(): void {
  const w = window as unknown as Record<string, unknown>;
  const posts: unknown[] = [];
  const violations: Violation[] = [];
  const timings: unknown[] = [];
  w.__posts = posts;
  w.__violations = violations;
  w.__renderTimings = timings;
  w.__renders = 0;
  // Chromium also reports markup parsed into a detached document (DOMPurify parses there before it
  // strips anything): such a report is aimed at the document itself with blockedURI "inline",
  // while one from the live page is aimed at the element that carries the inline code, and a
  // refused load names its URL. Only live reports say something got through.
  document.addEventListener(
    'securitypolicyviolation',
    (e) =>
      violations.push({
        directive: e.violatedDirective,
        blocked: e.blockedURI,
        sample: e.sample,
        live: !(e.target === document && e.blockedURI === 'inline'),
      }),
    true,
  );
  window.addEventListener('sextant-render', (e) => {
    w.__renders = (w.__renders as number) + 1;
    if (w.__keepTimings) timings.push((e as CustomEvent).detail);
  });
  let state: unknown = JSON.parse(sessionStorage.getItem('__vscodeState') ?? 'null');
  let acquired = false;
  w.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may be called once');
    acquired = true;
    return Object.freeze({
      postMessage(message: unknown) {
        posts.push(JSON.parse(JSON.stringify(message)));
      },
      getState: () => state,
      setState(s: unknown) {
        state = s;
        sessionStorage.setItem('__vscodeState', JSON.stringify(s));
      },
    });
  };
}

export interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  /** False for a report about markup parsed outside the live page (it never ran or loaded). */
  live: boolean;
}

export interface ViewHarness {
  page: Page;
  context: BrowserContext;
  origin: string;
  /** URLs the page tried to load from anywhere but the view's own origin. */
  foreignRequests: string[];
  dialogs: string[];
  pageErrors: string[];
  navigations: string[];
  posts(): Promise<Inbound[]>;
  /** Plays the host: delivers an Outbound message the way VS Code does (a window message event). */
  host(message: Outbound | unknown): Promise<void>;
  /** Resolves after the view has rendered `count` more times than when `mark` was taken. */
  renders(): Promise<number>;
  waitForRenders(atLeast: number): Promise<void>;
  waitForPost<T extends Inbound['type']>(
    type: T,
    predicate?: (m: Extract<Inbound, { type: T }>) => boolean,
  ): Promise<Extract<Inbound, { type: T }>>;
  /** CSP reports, live and from detached parses alike (see `Violation.live`). */
  violations(): Promise<Violation[]>;
  close(): Promise<void>;
}

export async function openView(
  browser: Browser,
  origin: string,
  opts: { path?: string; ready?: string } = {},
): Promise<ViewHarness> {
  const context = await browser.newContext({ viewport: { width: 420, height: 800 } });
  const foreignRequests: string[] = [];
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  const navigations: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    foreignRequests.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    void d.dismiss().catch(() => undefined);
  });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('framenavigated', (f) => navigations.push(f.url()));
  page.on('popup', (p) => navigations.push(`popup:${p.url()}`));
  await page.addInitScript(installStub);
  await page.goto(`${origin}${opts.path ?? '/'}`);
  const harness: ViewHarness = {
    page,
    context,
    origin,
    foreignRequests,
    dialogs,
    pageErrors,
    navigations,
    posts: () => page.evaluate(() => (window as unknown as { __posts: Inbound[] }).__posts),
    host: async (message) => {
      await page.evaluate((m) => window.postMessage(m, '*'), message as never);
    },
    renders: () => page.evaluate(() => (window as unknown as { __renders: number }).__renders),
    waitForRenders: async (atLeast) => {
      await page.waitForFunction((n) => (window as unknown as { __renders: number }).__renders >= n, atLeast);
    },
    waitForPost: async (type, predicate) => {
      const deadline = Date.now() + 5000;
      for (;;) {
        const posts = await harness.posts();
        const found = posts.find((p) => p.type === type && (!predicate || predicate(p as never)));
        if (found) return found as never;
        if (Date.now() > deadline) throw new Error(`no "${type}" post; posts: ${JSON.stringify(posts).slice(0, 800)}`);
        await page.waitForTimeout(20);
      }
    },
    violations: () => page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations),
    close: () => context.close(),
  };
  await harness.waitForPost((opts.ready ?? 'ready') as Inbound['type']);
  return harness;
}

/** Delivers a message and waits until the view has rendered it. */
export async function deliver(view: ViewHarness, message: Outbound | unknown): Promise<void> {
  const before = await view.renders();
  await view.host(message);
  await view.waitForRenders(before + 1);
}

/**
 * One Chromium and one view server for a test file, started before its tests and closed after:
 * `const env = useViewEnvironment();` then `view = await env.open()` in a test or hook.
 */
export function useViewEnvironment(): {
  open(opts?: { path?: string; ready?: string }): Promise<ViewHarness>;
  readonly origin: string;
} {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = '';
  before(async () => {
    browser = await launchChromium();
    ({ origin, server } = await startViewServer());
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  return {
    open: (opts) => openView(browser!, origin, opts),
    get origin() {
      return origin;
    },
  };
}
