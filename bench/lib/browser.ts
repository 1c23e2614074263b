// The browser tools' figures on a local page, through the whole path the agent uses (the tool, the
// guard proxy, playwright-core, Debian's chromium): time to the first snapshot with a cold browser
// (launch included) and a warm one, a snapshot alone, a screenshot, and the browser's memory idle.
import { BrowserSessions } from '../../extension/core/tools/browser/session';
import { createBrowserTools } from '../../extension/core/tools/browser/tools';
import { createToolSessionState, disposeToolSession } from '../../extension/core/tools/registry';
import type { AnyTool } from '../../extension/core/tools/types';
import { join } from 'node:path';
import type { BrowserBackend } from '../../extension/core/tools/browser/port';
import { profileProcesses } from '../../extension/platform/browser/processes';
import { findBrowser } from '../../extension/platform/browser/find-browser';
import { makeContext } from '../../test/fixtures/node-ports';
import { startTestSite, testResolve } from '../../test/fixtures/browser/site';

const DRIVER = join(process.cwd(), 'dist', 'browser-driver', 'lib', 'browser.js');
const COLD = Number(process.env.BROWSER_BENCH_COLD ?? 3);
const WARM = Number(process.env.BROWSER_BENCH_WARM ?? 20);

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, min ${s[0].toFixed(0)} ms (n=${s.length})`;
}

async function main() {
  const found = findBrowser();
  if ('problem' in found) {
    console.log(`SKIPPED: ${found.problem}`);
    return;
  }
  console.log(`browser: ${found.path}`);
  const site = await startTestSite();
  const sessions = new BrowserSessions({
    allowPrivateHosts: () => ['site.test'],
    resolve: testResolve,
    settings: () => ({ headless: true }),
    // The shipped bundle (node esbuild.mjs builds it), loaded as the runtime loads it.
    loadBackend: async () => (require(DRIVER) as { createBrowserBackend(): BrowserBackend }).createBrowserBackend(),
  });
  const tools = createBrowserTools({ sessions });
  const tool = (n: string) => tools.find((t) => t.name === `browser_${n}`) as AnyTool;
  const url = `http://site.test:${site.port}/`;
  const timed = async (name: string, input: unknown, session: ReturnType<typeof createToolSessionState>) => {
    const ctx = makeContext({} as never, { session, supportsImages: true });
    const t0 = performance.now();
    const r = await tool(name).execute(input, ctx);
    if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.forModel).slice(0, 300)}`);
    return performance.now() - t0;
  };
  try {
    const cold: number[] = [];
    const loadMs = performance.now();
    require(DRIVER);
    const bundleLoad = performance.now() - loadMs;
    for (let i = 0; i < COLD; i++) {
      const s = createToolSessionState(`cold-${i}`);
      cold.push(await timed('navigate', { url }, s));
      disposeToolSession(s);
      await sessions.closeAll();
    }
    const s = createToolSessionState('warm');
    await timed('navigate', { url }, s);
    const warm: number[] = [];
    const snap: number[] = [];
    const shot: number[] = [];
    for (let i = 0; i < WARM; i++) {
      warm.push(await timed('navigate', { url: `${url}?n=${i}` }, s));
      snap.push(await timed('snapshot', {}, s));
      shot.push(await timed('screenshot', {}, s));
    }
    await new Promise((r) => setTimeout(r, 2000));
    const pss = await sessions.peek(s)?.page?.memoryBytes();
    const pids = profileProcesses(sessions.peek(s)?.page?.info.profileDir ?? '/none');
    console.log(`bundle require (dist/browser-driver, once per window): ${bundleLoad.toFixed(0)} ms`);
    console.log(`cold: launch + navigate + first snapshot: ${stats(cold)}`);
    console.log(`warm: navigate + snapshot:                ${stats(warm)}  (goal ≤ 300 ms)`);
    console.log(`warm: snapshot alone:                     ${stats(snap)}`);
    console.log(`warm: screenshot (JPEG 1280×800):          ${stats(shot)}`);
    const mb = pss ? `${(pss / 1024 / 1024).toFixed(0)} MB` : 'n/a';
    console.log(`browser memory idle (PSS of its ${pids.length} processes, Linux /proc): ${mb}`);
    disposeToolSession(s);
  } finally {
    await sessions.closeAll();
    await site.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
