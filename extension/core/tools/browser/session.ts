// One browser per chat session, started on the first browser call and closed on Stop, when the
// session ends (New Chat, another chat resumed, the window closing) and after a quiet spell. Also
// the origins the user approved in this session: navigating to one of them again, and clicking or
// typing on its pages, does not ask again (core/agent/tool-phases.ts `judge`).
import type { ToolContext, ToolSessionState } from '../types';
import type { BrowserBackend, BrowserPage } from './port';
import { browserConnectionGuard, type BrowserGuardOptions } from './guard';

export interface BrowserSettings {
  /** `sextant.browser.executablePath` (user scope), or undefined to find one. */
  executablePath?: string;
  headless: boolean;
}

export interface BrowserSessionsDeps extends BrowserGuardOptions {
  /** Loads the backend (the playwright-core bundle) on first use. */
  loadBackend(): Promise<BrowserBackend>;
  settings(): BrowserSettings;
  /** Closed after this long without a browser call (default 5 minutes). */
  idleMs?: number;
  /** Extra browser flags (tests). */
  extraArgs?: readonly string[];
  setTimer?(fn: () => void, ms: number): { unref?(): void };
  clearTimer?(handle: unknown): void;
}

export const DEFAULT_IDLE_MS = 5 * 60_000;
const EXTRAS_KEY = 'browser';

/** The browser of one chat session. */
export class BrowserSession {
  /** Origins (`https://host:port`) the user approved, or a rule allowed, in this session. */
  readonly approvedOrigins = new Set<string>();
  private opening: Promise<BrowserPage> | undefined;
  private current: BrowserPage | undefined;
  private idle: unknown;
  /** Calls using the browser now: it is never closed as idle under them. */
  private active = 0;
  private readonly watched = new WeakSet<AbortSignal>();
  /** Why the last browser ended, told to the model on the next call. */
  private endedBecause: string | undefined;

  constructor(
    private readonly deps: BrowserSessionsDeps,
    private readonly onDisposed: () => void = () => undefined,
  ) {}

  /** The page if a browser is running now (no launch). */
  get page(): BrowserPage | undefined {
    return this.current;
  }

  /**
   * Runs `fn` on the session's page, launching the browser first if needed. Stop of `ctx`'s request
   * closes the browser; the idle clock runs only while no call is using it.
   */
  async within<T>(ctx: Pick<ToolContext, 'signal' | 'progress'>, fn: (page: BrowserPage) => Promise<T>): Promise<T> {
    this.watch(ctx.signal);
    this.active++;
    this.clearIdle();
    try {
      return await fn(await this.open(ctx));
    } finally {
      this.active--;
      if (this.active === 0 && this.current) this.touch();
    }
  }

  private async open(ctx: Pick<ToolContext, 'progress'>): Promise<BrowserPage> {
    if (this.current) return this.current;
    if (!this.opening) {
      ctx.progress('Starting the browser…\n');
      this.opening = this.launch().finally(() => {
        this.opening = undefined;
      });
    }
    return this.opening;
  }

  /** A note for the model when the browser it used has gone since its last call (then forgotten). */
  takeEndNote(): string | undefined {
    const note = this.endedBecause;
    this.endedBecause = undefined;
    return note;
  }

  async close(why?: string): Promise<void> {
    this.clearIdle();
    const page = this.current ?? (await this.opening?.catch(() => undefined));
    this.current = undefined;
    if (page && why) this.endedBecause = why;
    await page?.close();
  }

  /** Called when the chat session ends (tools/util/session.ts). */
  disposeWithSession(): void {
    this.onDisposed();
    void this.close();
  }

  private async launch(): Promise<BrowserPage> {
    const backend = await this.deps.loadBackend();
    const s = this.deps.settings();
    const page = await backend.launch({
      ...(s.executablePath ? { executablePath: s.executablePath } : {}),
      headless: s.headless,
      guard: browserConnectionGuard(this.deps),
      ...(this.deps.extraArgs ? { extraArgs: this.deps.extraArgs } : {}),
    });
    this.current = page;
    void page.closed.then(() => {
      if (this.current !== page) return;
      this.current = undefined;
      this.clearIdle();
      this.endedBecause = 'The browser closed (it crashed or was closed outside Sextant); the page is gone.';
    });
    return page;
  }

  private watch(signal: AbortSignal): void {
    if (this.watched.has(signal)) return;
    this.watched.add(signal);
    const onAbort = () => void this.close('The browser was closed when the user pressed Stop.');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  }

  private touch(): void {
    this.clearIdle();
    const ms = this.deps.idleMs ?? DEFAULT_IDLE_MS;
    const set = this.deps.setTimer ?? ((fn: () => void, t: number) => setTimeout(fn, t));
    const handle = set(() => {
      const minutes = Math.round(ms / 60_000);
      void this.close(`The browser was closed after ${minutes >= 1 ? `${minutes} min` : `${ms} ms`} unused.`);
    }, ms);
    handle.unref?.();
    this.idle = handle;
  }

  private clearIdle(): void {
    if (this.idle === undefined) return;
    (this.deps.clearTimer ?? ((h: unknown) => clearTimeout(h as NodeJS.Timeout)))(this.idle);
    this.idle = undefined;
  }
}

/** Every chat session's browser, so the runtime can close them all when the window closes. */
export class BrowserSessions {
  private readonly all = new Set<BrowserSession>();

  constructor(readonly deps: BrowserSessionsDeps) {}

  /** The session's browser state, created on first use and kept in the session's extras. */
  of(session: ToolSessionState): BrowserSession {
    let s = session.extras.get(EXTRAS_KEY);
    if (!(s instanceof BrowserSession)) {
      const created = new BrowserSession(this.deps, () => this.all.delete(created));
      session.extras.set(EXTRAS_KEY, created);
      this.all.add(created);
      s = created;
    }
    return s as BrowserSession;
  }

  /** The session's browser state if it has one (judging a call must not create it). */
  peek(session: ToolSessionState): BrowserSession | undefined {
    const s = session.extras.get(EXTRAS_KEY);
    return s instanceof BrowserSession ? s : undefined;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.all].map((s) => s.close()));
  }
}
