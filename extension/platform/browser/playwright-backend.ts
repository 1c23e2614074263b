// The browser backend on playwright-core, driving a Chrome, Edge or Chromium already on the machine
// (find-browser.ts; never a download). Its own bundle (dist/browser-driver/lib/browser.js), loaded on
// the first browser call. One persistent context on a fresh temporary profile (no user cookies,
// removed on close), one page, all traffic through the guard proxy (guard-proxy.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import type {
  BrowserBackend,
  BrowserLaunchOptions,
  BrowserPage,
  ConsoleEntry,
  PageState,
  RefusedConnection,
} from '../../core/tools/browser/port';
import { findBrowser } from './find-browser';
import { startGuardProxy } from './guard-proxy';
import { profileProcesses, profileProcessesMemory } from './processes';

/** The flags the browser runs with: no first-run UI, no background traffic of its own, no UDP around the proxy. */
export const BROWSER_ARGS = [
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Bounded memory: one page, one renderer, a capped JavaScript heap.
  '--renderer-process-limit=2',
  '--js-flags=--max-old-space-size=512',
];

const VIEWPORT = { width: 1280, height: 800 };
const MAX_CONSOLE = 200;
const MAX_FULL_PAGE_HEIGHT = VIEWPORT.height * 3;

/**
 * Chromium's own sandbox cannot start as root, so root gets `--no-sandbox` (as on this kind of CI
 * machine); everyone else keeps it, falling back only when the OS refuses it (no user namespaces).
 */
function mustDisableSandbox(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function sandboxRefused(e: unknown): boolean {
  return /sandbox|namespace|setuid/i.test(e instanceof Error ? e.message : String(e));
}

function message(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  // Playwright's messages carry a call log after the first lines; the model needs the first.
  return text
    .split('\nCall log:')[0]
    .replace(/^\w+\.\w+: /, '')
    .trim();
}

class PlaywrightPage implements BrowserPage {
  private readonly consoleEntries: ConsoleEntry[] = [];
  private readonly refused: RefusedConnection[] = [];
  private closing: Promise<void> | undefined;
  readonly closed: Promise<void>;

  constructor(
    readonly info: BrowserPage['info'],
    private readonly context: BrowserContext,
    private page: Page,
    private readonly cleanup: () => Promise<void>,
    refusals: { sink?: (r: RefusedConnection) => void },
  ) {
    refusals.sink = (r) => {
      if (this.refused.length < 100) this.refused.push(r);
    };
    this.watch(page);
    // One page: a popup or new tab is closed and the model told where it wanted to go.
    context.on('page', (extra) => {
      if (extra === this.page) return;
      void extra.close().catch(() => undefined);
      this.consoleEntries.push({ level: 'info', text: `A popup (${extra.url()}) was closed: one page only.` });
    });
    this.closed = new Promise((resolve) => context.once('close', () => resolve()));
    void this.closed.then(() => this.close());
  }

  private watch(page: Page): void {
    page.on('console', (m) => this.pushConsole({ level: m.type(), text: m.text() }));
    page.on('pageerror', (e) => this.pushConsole({ level: 'error', text: `Uncaught ${e.name}: ${e.message}` }));
  }

  private pushConsole(e: ConsoleEntry): void {
    this.consoleEntries.push(e);
    if (this.consoleEntries.length > MAX_CONSOLE) this.consoleEntries.shift();
  }

  state(): PageState {
    return { url: this.page.url(), title: '' };
  }

  private async fullState(): Promise<PageState> {
    return { url: this.page.url(), title: await this.page.title().catch(() => '') };
  }

  async navigate(url: string, o: { timeoutMs: number; signal: AbortSignal }) {
    try {
      const response = await this.page.goto(url, { timeout: o.timeoutMs, waitUntil: 'load' });
      return { ...(await this.fullState()), ...(response ? { status: response.status() } : {}) };
    } catch (e) {
      if (/Timeout/i.test(String(e)))
        throw new Error(
          `${url} did not finish loading within ${Math.round(o.timeoutMs / 1000)} s (the server may hang). ` +
            'browser_snapshot shows whatever had loaded.',
        );
      throw new Error(`Could not open ${url}: ${message(e)}`);
    }
  }

  async snapshot(o: { timeoutMs: number; signal: AbortSignal }) {
    const text = await this.page.ariaSnapshot({ mode: 'ai', timeout: o.timeoutMs, signal: o.signal });
    return { ...(await this.fullState()), text };
  }

  private locate(ref: string) {
    return this.page.getByRef(ref);
  }

  /** After an action: if it started a navigation, wait for the new page's DOM (bounded). */
  private async settle(timeoutMs: number): Promise<void> {
    await this.page.waitForLoadState('domcontentloaded', { timeout: timeoutMs }).catch(() => undefined);
  }

  async click(ref: string, o: { timeoutMs: number; signal: AbortSignal }) {
    try {
      await this.locate(ref).click({ timeout: o.timeoutMs });
    } catch (e) {
      throw new Error(`Could not click ${ref}: ${message(e)}. Take a new browser_snapshot: refs change with the page.`);
    }
    await this.settle(o.timeoutMs);
  }

  async type(ref: string, text: string, o: { submit: boolean; timeoutMs: number; signal: AbortSignal }) {
    try {
      const field = this.locate(ref);
      await field.fill(text, { timeout: o.timeoutMs });
      if (o.submit) await field.press('Enter', { timeout: o.timeoutMs });
    } catch (e) {
      throw new Error(
        `Could not type into ${ref}: ${message(e)}. Take a new browser_snapshot: refs change with the page.`,
      );
    }
    await this.settle(o.timeoutMs);
  }

  async screenshot(o: { fullPage: boolean; timeoutMs: number }) {
    const opts = { type: 'jpeg' as const, quality: 70, timeout: o.timeoutMs, scale: 'css' as const };
    let bytes: Buffer;
    if (o.fullPage) {
      const height = await this.page.evaluate(() => document.documentElement.scrollHeight).catch(() => VIEWPORT.height);
      const clip = { x: 0, y: 0, width: VIEWPORT.width, height: Math.min(Math.max(height, 1), MAX_FULL_PAGE_HEIGHT) };
      bytes = await this.page.screenshot({ ...opts, fullPage: true, clip });
    } else bytes = await this.page.screenshot(opts);
    return { bytes: new Uint8Array(bytes), mediaType: 'image/jpeg' as const };
  }

  console(): ConsoleEntry[] {
    return [...this.consoleEntries];
  }

  takeRefused(): RefusedConnection[] {
    return this.refused.splice(0);
  }

  async memoryBytes(): Promise<number | undefined> {
    return profileProcessesMemory(this.info.profileDir);
  }

  close(): Promise<void> {
    this.closing ??= this.context
      .close()
      .catch(() => undefined)
      .then(() => this.cleanup());
    return this.closing;
  }
}

export function createBrowserBackend(): BrowserBackend {
  return {
    async launch(o: BrowserLaunchOptions): Promise<BrowserPage> {
      const found = findBrowser(o.executablePath ? { configured: o.executablePath } : {});
      if ('problem' in found) throw new Error(found.problem);
      const refusals: { sink?: (r: RefusedConnection) => void } = {};
      const pending: RefusedConnection[] = [];
      const proxy = await startGuardProxy({
        guard: o.guard,
        onRefused: (r) => (refusals.sink ? refusals.sink(r) : pending.push(r)),
      });
      const profileDir = mkdtempSync(join(tmpdir(), 'sextant-browser-'));
      const cleanup = async () => {
        await proxy.close();
        rmSync(profileDir, { recursive: true, force: true });
      };
      const launch = (sandboxed: boolean) =>
        chromium.launchPersistentContext(profileDir, {
          executablePath: found.path,
          headless: o.headless,
          chromiumSandbox: sandboxed,
          args: [...BROWSER_ARGS, ...(o.extraArgs ?? [])],
          proxy: { server: proxy.url },
          viewport: VIEWPORT,
          deviceScaleFactor: 1,
          acceptDownloads: false,
          serviceWorkers: 'block',
          timeout: 30_000,
        });
      let sandboxed = !mustDisableSandbox();
      let context: BrowserContext;
      try {
        try {
          context = await launch(sandboxed);
        } catch (e) {
          if (!sandboxed || !sandboxRefused(e)) throw e;
          sandboxed = false;
          context = await launch(false);
        }
      } catch (e) {
        await cleanup();
        throw new Error(`The browser (${found.path}) did not start: ${message(e).split('\n')[0]}`);
      }
      const page = context.pages()[0] ?? (await context.newPage());
      const info = { executablePath: found.path, sandboxed, profileDir };
      const result = new PlaywrightPage(info, context, page, cleanup, refusals);
      for (const r of pending) refusals.sink?.(r);
      return result;
    },
  };
}

export { findBrowser } from './find-browser';
export { profileProcesses } from './processes';
