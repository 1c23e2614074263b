// The browser tools: a small family rather than one tool with an `action` argument, because each has
// its own permission facts and modes — browser_navigate is a network call judged by URL rules
// (`browser_navigate(domain:…)`), reading the page (snapshot, screenshot, console) changes nothing,
// and clicking or typing acts on a page, so Research mode can be given the readers without the
// hands. The names are the Playwright MCP server's, which models already know.
import * as z from 'zod';
import type { Mode } from '../../../protocol';
import type { ToolSessionState } from '../types';
import { defineTool, errorResult, type ToolContext, type ToolDefinition, type ToolResult } from '../types';
import { originOf, vetNavigation } from './guard';
import { pageHeading, refusedNote, snapshotResult } from './results';
import type { BrowserPage } from './port';
import type { BrowserSession, BrowserSessions } from './session';

export interface BrowserTimeouts {
  navigationMs: number;
  actionMs: number;
}

export const DEFAULT_BROWSER_TIMEOUTS: BrowserTimeouts = { navigationMs: 30_000, actionMs: 10_000 };

// Research mode only opens and reads pages (core/research/browser-reader.ts): no clicks, typing,
// screenshots or console.
const READ_MODES: readonly Mode[] = ['agent', 'research'];
const ACT_MODES: readonly Mode[] = ['agent'];

const navigateInput = z.object({
  url: z.string().min(1).max(4000).describe('The page to open: a full http:// or https:// URL.'),
});
const noInput = z.object({});
const screenshotInput = z.object({
  full_page: z.boolean().optional().describe('The whole page (up to 3 screens high) instead of the visible part.'),
});
const refInput = {
  ref: z
    .string()
    .regex(/^[a-z]*\d+(e\d+)?$/i, 'a ref from the latest snapshot, like e5')
    .describe('The element\'s ref from the latest snapshot, e.g. "e5".'),
  element: z
    .string()
    .max(300)
    .optional()
    .describe('What the element is, in words ("the Sign in button"), for the user.'),
};
const clickInput = z.object(refInput);
const typeInput = z.object({
  ...refInput,
  text: z.string().max(10_000).describe('The text to put in the field (replaces what is there).'),
  submit: z.boolean().optional().describe('Press Enter afterwards (submits most forms).'),
});

const NO_PAGE = 'No page is open: call browser_navigate with a URL first.';

function origins(s: BrowserSession | undefined): Set<string> | undefined {
  return s?.approvedOrigins;
}

/** Everything about the tools but their services: what the modes and the permission policy read. */
export const browserDeclarations = {
  navigate: {
    name: 'browser_navigate',
    kind: 'network',
    permission: { subject: 'url', text: (i: z.infer<typeof navigateInput>) => i.url },
    modes: READ_MODES,
    description: [
      'Opens a web page in a real browser (JavaScript runs) and returns its accessibility snapshot: the',
      "page's roles, names and text, each element with a ref such as [ref=e5] for browser_click and",
      'browser_type. Use it to check a local dev server after a change, reproduce a UI bug, or read a page',
      'that needs JavaScript; for plain reading, web_fetch is cheaper. Private and local addresses are',
      'refused unless the user listed the host in sextant.web.allowPrivateHosts; so is every connection',
      'the page itself opens to them. The browser has a fresh profile: no cookies, no logins.',
    ].join(' '),
    input: navigateInput,
    subject: (i: z.infer<typeof navigateInput>) => i.url,
  },
  snapshot: {
    name: 'browser_snapshot',
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: READ_MODES,
    description: "The open page's accessibility snapshot again (after it changed by itself, or to refresh the refs).",
    input: noInput,
    subject: () => 'page snapshot',
  },
  screenshot: {
    name: 'browser_screenshot',
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: ACT_MODES,
    description:
      'A screenshot of the open page (JPEG, 1280×800 viewport), returned as an image to models that see images. ' +
      'Use it for layout and visual questions; act on the page with refs from browser_snapshot.',
    input: screenshotInput,
    subject: (i: z.infer<typeof screenshotInput>) => (i.full_page ? 'full page' : 'visible part'),
  },
  console: {
    name: 'browser_console',
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: ACT_MODES,
    description: "The open page's latest console messages and uncaught errors (up to 200).",
    input: noInput,
    subject: () => 'console messages',
  },
  close: {
    name: 'browser_close',
    kind: 'read',
    permission: { subject: 'text', text: () => '' },
    modes: READ_MODES,
    description: 'Closes the browser (it also closes by itself after 5 minutes unused, on Stop and with the chat).',
    input: noInput,
    subject: () => 'close the browser',
  },
  click: {
    name: 'browser_click',
    kind: 'network',
    permission: { subject: 'text', text: (i: z.infer<typeof clickInput>) => i.element ?? i.ref },
    modes: ACT_MODES,
    description:
      'Clicks an element of the open page by its ref from the latest snapshot, then returns the new snapshot.',
    input: clickInput,
    subject: (i: z.infer<typeof clickInput>) => (i.element ? `${i.element} (${i.ref})` : i.ref),
  },
  type: {
    name: 'browser_type',
    kind: 'network',
    permission: { subject: 'text', text: (i: z.infer<typeof typeInput>) => i.element ?? i.ref },
    modes: ACT_MODES,
    description:
      'Types text into a field of the open page (by its ref; replaces what is there), optionally pressing Enter, ' +
      'then returns the new snapshot.',
    input: typeInput,
    subject: (i: z.infer<typeof typeInput>) => `${i.element ?? i.ref}: ${JSON.stringify(i.text.slice(0, 80))}`,
  },
} satisfies Record<string, Omit<ToolDefinition, 'execute'>>;

export function browserToolFacts(): Omit<ToolDefinition, 'execute'>[] {
  return Object.values(browserDeclarations) as Omit<ToolDefinition, 'execute'>[];
}

export interface BrowserToolsDeps {
  sessions: BrowserSessions;
  timeouts?: BrowserTimeouts;
}

function failure(e: unknown, ctx: ToolContext, session?: BrowserSession): ToolResult {
  if (ctx.signal.aborted) return errorResult('Stopped: the user pressed Stop, and the browser was closed.');
  const refused = session?.page && refusedNote(session.page.takeRefused());
  return errorResult([e instanceof Error ? e.message : String(e), refused].filter(Boolean).join('\n\n'));
}

/** The session's open page, or the note saying there is none (and why, if it closed meanwhile). */
function openPage(session: BrowserSession): { page: BrowserPage } | { error: ToolResult } {
  const page = session.page;
  if (page) return { page };
  const why = session.takeEndNote();
  return { error: errorResult(why ? `${why} ${NO_PAGE}` : NO_PAGE) };
}

export function createBrowserTools(deps: BrowserToolsDeps) {
  const t = deps.timeouts ?? DEFAULT_BROWSER_TIMEOUTS;
  const sessions = deps.sessions;
  const guard = sessions.deps;

  /** After a click or a redirect: a page on an origin nobody approved is left at once. */
  async function leaveUnapproved(session: BrowserSession, ctx: ToolContext): Promise<string | undefined> {
    const page = session.page;
    const origin = page && originOf(page.state().url);
    if (!page || !origin || session.approvedOrigins.has(origin)) return undefined;
    const url = page.state().url;
    await page.navigate('about:blank', { timeoutMs: t.actionMs, signal: ctx.signal }).catch(() => undefined);
    return (
      `The page went on to ${url}, an origin not approved in this session, so the browser left it. ` +
      'To open it, call browser_navigate with that URL (the user is asked).'
    );
  }

  const approvedPage = (_i: unknown, s: ToolSessionState): string | undefined => {
    const origin = sessions.peek(s)?.page && originOf(sessions.peek(s)?.page?.state().url ?? '');
    return origin && origins(sessions.peek(s))?.has(origin)
      ? `acting on a page of ${origin}, which was approved earlier in this session`
      : undefined;
  };

  const navigate = defineTool({
    ...browserDeclarations.navigate,
    approvedEarlier(i, s) {
      const origin = originOf(i.url);
      return origin && origins(sessions.peek(s))?.has(origin)
        ? `${origin} was approved earlier in this session`
        : undefined;
    },
    async describeForApproval(i) {
      const origin = originOf(i.url) ?? i.url;
      return `Open ${i.url} in the browser.\nApproving lets the agent browse ${origin} for the rest of this chat.`;
    },
    async execute(i, ctx) {
      const vetted = await vetNavigation(i.url, guard);
      if (!vetted.ok) return errorResult(`Not opened: ${vetted.reason}`);
      const session = sessions.of(ctx.session);
      const origin = vetted.url.origin;
      try {
        return await session.within(ctx, async (page) => {
          session.approvedOrigins.add(origin);
          ctx.progress(`Opening ${vetted.url.href}…\n`);
          const opened = await page.navigate(vetted.url.href, { timeoutMs: t.navigationMs, signal: ctx.signal });
          const left = await leaveUnapproved(session, ctx);
          if (left) return errorResult([left, refusedNote(page.takeRefused())].filter(Boolean).join('\n\n'));
          const status = opened.status && opened.status >= 400 ? ` (HTTP ${opened.status})` : '';
          const text = await snapshotResult(page, {
            lead: `Opened ${opened.url}${status}.`,
            timeoutMs: t.actionMs,
            signal: ctx.signal,
          });
          return { forModel: text, forUi: text, isError: false };
        });
      } catch (e) {
        return failure(e, ctx, session);
      }
    },
  });

  const snapshot = defineTool({
    ...browserDeclarations.snapshot,
    async execute(_i, ctx) {
      const session = sessions.of(ctx.session);
      const open = openPage(session);
      if ('error' in open) return open.error;
      try {
        const text = await session.within(ctx, (page) =>
          snapshotResult(page, { timeoutMs: t.actionMs, signal: ctx.signal }),
        );
        return { forModel: text, forUi: text, isError: false };
      } catch (e) {
        return failure(e, ctx);
      }
    },
  });

  const screenshot = defineTool({
    ...browserDeclarations.screenshot,
    async execute(i, ctx) {
      const session = sessions.of(ctx.session);
      const open = openPage(session);
      if ('error' in open) return open.error;
      try {
        const shot = await session.within(ctx, (page) =>
          page.screenshot({ fullPage: i.full_page === true, timeoutMs: t.actionMs }),
        );
        const kb = Math.max(1, Math.round(shot.bytes.length / 1024));
        // The card shows the screenshot whatever the model (references to the image store, not bytes).
        const image = {
          type: 'image' as const,
          mediaType: shot.mediaType,
          dataBase64: Buffer.from(shot.bytes).toString('base64'),
        };
        const desc = `Screenshot of ${pageHeading(open.page.state()).replace('\n', ' — ')} (JPEG, ${kb} KB)`;
        if (!ctx.supportsImages) {
          const msg =
            `${desc}. The current model cannot view images, so the screenshot is not sent; read the page with ` +
            'browser_snapshot instead (or switch to a model that accepts images).';
          return { forModel: msg, forUi: msg, isError: false, images: [image] };
        }
        return { forModel: [{ type: 'text', text: desc }, image], forUi: desc, isError: false, images: [image] };
      } catch (e) {
        return failure(e, ctx);
      }
    },
  });

  const consoleTool = defineTool({
    ...browserDeclarations.console,
    async execute(_i, ctx) {
      const open = openPage(sessions.of(ctx.session));
      if ('error' in open) return open.error;
      const entries = open.page.console();
      const text = entries.length
        ? entries.map((e) => `[${e.level}] ${e.text.slice(0, 2000)}`).join('\n')
        : 'The page has logged nothing.';
      return { forModel: text, forUi: text, isError: false };
    },
  });

  const close = defineTool({
    ...browserDeclarations.close,
    async execute(_i, ctx) {
      const session = sessions.peek(ctx.session);
      if (!session?.page) return { forModel: 'The browser was not open.', forUi: 'Not open.', isError: false };
      await session.close();
      return { forModel: 'The browser is closed.', forUi: 'Closed.', isError: false };
    },
  });

  async function act(ctx: ToolContext, lead: string, run: (page: BrowserPage) => Promise<void>) {
    const session = sessions.of(ctx.session);
    const open = openPage(session);
    if ('error' in open) return open.error;
    try {
      return await session.within(ctx, async (page): Promise<ToolResult> => {
        await run(page);
        const left = await leaveUnapproved(session, ctx);
        if (left) return errorResult([`${lead}.`, left, refusedNote(page.takeRefused())].filter(Boolean).join('\n\n'));
        const text = await snapshotResult(page, { lead: `${lead}.`, timeoutMs: t.actionMs, signal: ctx.signal });
        return { forModel: text, forUi: text, isError: false };
      });
    } catch (e) {
      return failure(e, ctx, session);
    }
  }

  const click = defineTool({
    ...browserDeclarations.click,
    approvedEarlier: approvedPage,
    execute: (i, ctx) =>
      act(ctx, `Clicked ${i.element ?? i.ref}`, (page) =>
        page.click(i.ref, { timeoutMs: t.actionMs, signal: ctx.signal }),
      ),
  });

  const type = defineTool({
    ...browserDeclarations.type,
    approvedEarlier: approvedPage,
    execute: (i, ctx) =>
      act(ctx, `Typed into ${i.element ?? i.ref}${i.submit ? ' and pressed Enter' : ''}`, (page) =>
        page.type(i.ref, i.text, { submit: i.submit === true, timeoutMs: t.actionMs, signal: ctx.signal }),
      ),
  });

  return [navigate, snapshot, click, type, screenshot, consoleTool, close];
}
