// Read-only navigation for Research mode. A page whose static fetch yields (almost) no text is usually
// drawn by JavaScript; the research loop then reads it again in the browser — the same browser tools
// Agent mode has, limited to the ones that only look: browser_navigate (its accessibility snapshot is the
// page's text), browser_snapshot and browser_close. Clicking and typing are not offered: a research run
// never acts on a page. The browser's guard is web_fetch's (private hosts refused unless listed in
// sextant.web.allowPrivateHosts), and the user is asked once per origin per run.
import type { ToolPorts } from '../ports';
import type { AnyTool, ToolResult } from '../tools/types';
import { createToolSessionState, disposeToolSession } from '../tools/util/session';

/** The browser tools Research mode is offered, and no others. */
export const RESEARCH_BROWSER_TOOLS: readonly string[] = ['browser_navigate', 'browser_snapshot', 'browser_close'];

/** A fetched page with less readable text than this is read again in the browser (when one is offered). */
export const THIN_PAGE_CHARS = 400;

export interface PageBrowser {
  /** Opens `url` and returns its text (the accessibility snapshot, refs left out). */
  read(url: string, signal: AbortSignal): Promise<{ url: string; text: string }>;
  /** Runs one of the offered tools by name; any other (browser_click, browser_type, …) is refused. */
  run(name: string, input: unknown, signal: AbortSignal): Promise<ToolResult>;
  /** Closes the browser (the run is over). */
  close(): Promise<void>;
}

/** The browser tools among `tools` that Research mode declares (navigate, snapshot, close). */
export function researchBrowserTools(tools: readonly AnyTool[]): AnyTool[] {
  return tools.filter((t) => t.name.startsWith('browser_') && t.modes.includes('research'));
}

const textOf = (r: ToolResult) =>
  typeof r.forModel === 'string' ? r.forModel : r.forModel.map((b) => (b.type === 'text' ? b.text : '')).join('\n');

/** A page browser over the browser tools, with a browser of its own (one per research run). */
export function toolPageBrowser(
  tools: readonly AnyTool[],
  toolPorts: Omit<ToolPorts, 'approval' | 'ask'>,
  runId: string,
): PageBrowser {
  // The run asks about each origin itself (ResearchBrowsing); the tools never ask anything.
  const ports: ToolPorts = {
    ...toolPorts,
    approval: { request: async () => ({ decision: 'deny' }) },
    ask: {
      ask: async () => {
        throw new Error('a research run asks nothing through the browser');
      },
    },
  };
  const offered = new Map(
    researchBrowserTools(tools)
      .filter((t) => RESEARCH_BROWSER_TOOLS.includes(t.name))
      .map((t) => [t.name, t]),
  );
  const session = createToolSessionState(`research-${runId}`);
  let calls = 0;
  const run = async (name: string, input: unknown, signal: AbortSignal): Promise<ToolResult> => {
    const tool = offered.get(name);
    if (!tool) throw new Error(`${name} is not offered in Research mode, which only opens and reads pages.`);
    const parsed = tool.input.safeParse(input);
    if (!parsed.success) throw new Error(`${name}: ${parsed.error.issues[0]?.message ?? 'bad input'}`);
    const ctx = {
      signal,
      ports,
      session,
      callId: `${runId}-browser-${++calls}`,
      progress: () => {},
      supportsImages: false,
    };
    return tool.execute(parsed.data, ctx);
  };
  return {
    run,
    async read(url, signal) {
      const result = await run('browser_navigate', { url }, signal);
      if (result.isError) throw new Error(result.forUi);
      return { url, text: textOf(result).replace(/ \[ref=[^\]]+\]/g, '') };
    },
    async close() {
      if (offered.has('browser_close')) await run('browser_close', {}, new AbortController().signal).catch(() => {});
      disposeToolSession(session);
    },
  };
}

/** Asks the user before a research run opens an origin in the browser (false: do not). */
export type BrowseApproval = (url: string, origin: string, signal: AbortSignal) => Promise<boolean>;

/** One run's browsing: each origin asked about once; without an approval port nothing is opened. */
export class ResearchBrowsing {
  private readonly origins = new Map<string, Promise<boolean>>();

  constructor(
    private readonly browser: PageBrowser,
    private readonly approve: BrowseApproval | undefined,
  ) {}

  /** The page's text read in the browser, or undefined when the user (or no approval port) said no. */
  async read(url: string, signal: AbortSignal): Promise<{ url: string; text: string } | undefined> {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return undefined;
    }
    const approve = this.approve;
    if (!approve) return undefined;
    let asked = this.origins.get(origin);
    if (!asked) {
      asked = approve(url, origin, signal).catch(() => false);
      this.origins.set(origin, asked);
    }
    if (!(await asked)) return undefined;
    return this.browser.read(url, signal);
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
