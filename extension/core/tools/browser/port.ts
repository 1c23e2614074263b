// The port between the browser tools (core) and the program that drives a real browser
// (extension/platform/browser, playwright-core). Core decides what may be reached and when the
// browser lives; the backend only launches, drives and closes it. Loaded on the first browser call.

/** Where one connection the page wants to open may go: the address to connect to, or why not. */
export type ConnectionVerdict =
  | { ok: true; address: string }
  /** `quiet`: the browser's own background traffic, refused without telling the model about it. */
  | { ok: false; reason: string; quiet?: boolean };

/**
 * Judges every connection the browser opens (pages, subresources, redirects, fetch/XHR, WebSockets):
 * the backend routes all of the browser's traffic through a proxy that asks this first and then
 * connects to the address it returns, never to what the browser's own DNS would say.
 */
export type ConnectionGuard = (target: {
  host: string;
  port: number;
  scheme: 'http' | 'https';
}) => Promise<ConnectionVerdict>;

export interface BrowserLaunchOptions {
  /** `sextant.browser.executablePath`; absent: the backend looks for Chrome, Edge or Chromium. */
  executablePath?: string;
  headless: boolean;
  guard: ConnectionGuard;
  /** Extra command-line flags (tests map host names). */
  extraArgs?: readonly string[];
}

export interface PageState {
  url: string;
  title: string;
}

export interface ConsoleEntry {
  level: string;
  text: string;
}

/** A connection the guard refused, as the page asked for it. */
export interface RefusedConnection {
  target: string;
  reason: string;
}

/** One running browser with its one page. Every method rejects with a message written for the model. */
export interface BrowserPage {
  /** What launched: the executable, and whether Chromium's own sandbox is on. */
  readonly info: { executablePath: string; sandboxed: boolean; profileDir: string };
  navigate(url: string, opts: { timeoutMs: number; signal: AbortSignal }): Promise<PageState & { status?: number }>;
  /** The accessibility snapshot with refs (`[ref=e5]`) the model clicks and types by. */
  snapshot(opts: { timeoutMs: number; signal: AbortSignal }): Promise<PageState & { text: string }>;
  click(ref: string, opts: { timeoutMs: number; signal: AbortSignal }): Promise<void>;
  type(ref: string, text: string, opts: { submit: boolean; timeoutMs: number; signal: AbortSignal }): Promise<void>;
  screenshot(opts: { fullPage: boolean; timeoutMs: number }): Promise<{ bytes: Uint8Array; mediaType: 'image/jpeg' }>;
  state(): PageState;
  /** The page's latest console messages and uncaught errors (the last 200). */
  console(): ConsoleEntry[];
  /** Connections refused since the last call (then forgotten). */
  takeRefused(): RefusedConnection[];
  /** Closes the browser, stops its proxy and removes its profile. Safe to call twice. */
  close(): Promise<void>;
  /** Resolves when the browser went away (closed, crashed, killed). */
  readonly closed: Promise<void>;
  /** The memory of the browser's processes in bytes (PSS: shared pages once), where the OS tells (Linux). */
  memoryBytes(): Promise<number | undefined>;
}

export interface BrowserBackend {
  launch(opts: BrowserLaunchOptions): Promise<BrowserPage>;
}
