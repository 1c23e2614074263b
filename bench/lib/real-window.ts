// The real window (code-server + headless Chromium, the e2e harness), measured as a user meets it:
//   1. First use: a fresh window's first message, keydown in the view → request on the wire, typed the
//      moment the view opens (the runtime may still be loading: the worst case), and typed once the
//      output channel says the runtime is ready (as a person who types a question). Each is the median
//      of FIRST_USE_TRIES fresh windows (a window reload restarts the extension host), with the range.
//   2. A long run: one Agent request of STEPS model turns, each a read_file the policy allows, answered
//      at once by the fake model. The time per step is the gap between two model requests as the fake
//      server receives them, so it holds everything Sextant does per step in the real window: the
//      extension host's request, tool, journal and view updates, and the webview's rendering of a growing
//      answer. REAL_WINDOW_HIDE=1 runs it with the view hidden (the Explorer in front): if that is flat
//      and the visible run is not, what grows is the webview's. REAL_WINDOW_STEPS=0 leaves it out.
//      Before it, an untimed Agent run of REAL_WINDOW_WARMUP_STEPS (30) in a chat of its own, then a wait
//      until the window is idle (idle-window.ts): the first use's window reloads leave the window starting
//      up (extension host, workbench, TS server), which landed on the timed run's first steps and put its
//      ratio anywhere from 0.21 to 1.27.
// Prints figures; asserts nothing.
import type { FakeLlm } from '../../test/fixtures/fake-llm';
import { E2E } from '../../test/e2e/harness/e2e';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findFiles, poll, type Workbench, waitUntil } from '../../test/e2e/harness/workbench';
import { waitForIdleWindow } from './idle-window';

const STEPS = Number(process.env.REAL_WINDOW_STEPS ?? 150);
/** Steps of the untimed Agent run before the long run (REAL_WINDOW_WARMUP_STEPS; 0 leaves it out). */
const WARMUP_STEPS = Number(process.env.REAL_WINDOW_WARMUP_STEPS ?? 30);
/** Fresh windows per first-use figure (REAL_WINDOW_FIRST_USE_TRIES). */
const FIRST_USE_TRIES = Math.max(1, Number(process.env.REAL_WINDOW_FIRST_USE_TRIES ?? 5));
/**
 * Before the third round of issue 36's first-use work (the connection warmed with a GET, which undici keeps,
 * not a HEAD, after which it closes the connection; the SDK's request path rehearsed locally; the connection
 * warmed again while the user types): this bench (warm-up run, idle wait) on ba89492, three runs on
 * 2026-11-29 on the shared 2-core machine (load 4–6), 3 fresh windows each: each run's median, and the long
 * run's last ÷ first step (the first run without the idle wait). Earlier rounds: main 0612b5c gave ready
 * 141.2 and 190.4 ms, 8559267 245.3 and 118.9 ms. Run to run, this machine varies by 2×.
 */
const BASELINE = { atOnce: [405.5, 79.8, 108.1], ready: [151.6, 97.9, 109.3], longRun: [0.98, 0.7, 0.52] };
/** Steps at each end taken as a median, so one slow step (a GC, the TS server) does not decide. */
const WINDOW = 15;

const e2e = new E2E();

function median(xs: number[]): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const chatRequests = (fake: FakeLlm) => fake.requests.filter((r) => r.api === 'openai');

/** One first use: keydown → on the wire, split where the message reached the extension host. */
interface FirstUse {
  total: number;
  /** keydown in the view → the message at the extension host: VS Code's webview → host hop. */
  hop: number;
  /** The message at the extension host → the request on the wire: Sextant's own part. */
  own: number;
  /** Sextant's part step by step, as the "first request" line names them (core/util/first-request-trace.ts). */
  steps: Map<string, number>;
  /** The request went on a connection that had carried a request before (the warm-up's GET). */
  reused: boolean;
  /** How that window's runtime met V8's code cache (runtime-host.ts's "runtime ready" line). */
  codeCache: string;
}

/** Sends `text` from the composer and returns ms from the keydown inside the webview to the request. */
async function keydownToWire(wb: Workbench, fake: FakeLlm, text: string, answer: string): Promise<FirstUse> {
  const before = chatRequests(fake).length;
  fake.enqueue({ text: answer });
  await wb.typeMessage(text, { send: false });
  const box = wb.inWebview('textbox', 'Message');
  await wb.armKeydownClock();
  await box.press('Enter');
  await poll('the model request', async () => chatRequests(fake).length > before);
  const req = chatRequests(fake)[before];
  const keydownAt = await wb.keydownAt();
  await poll(`the answer "${answer}"`, async () => (await wb.articles('Sextant').last().innerText()).includes(answer));
  const reused = req.reusedConnection;
  const none = {
    total: Number.NaN,
    hop: Number.NaN,
    own: Number.NaN,
    steps: new Map<string, number>(),
    reused,
    codeCache: '?',
  };
  if (keydownAt === undefined) return none;
  // The window's "first request" line says when the message reached the host (vscode/first-send-clock.ts)
  // and how long each of Sextant's steps took; a build without that line gives the total alone.
  const line = await poll('the "first request" line in the Sextant output channel', async () =>
    hostArrivals(wb).find((l) => l.at >= keydownAt && l.at <= req.receivedAt),
  ).catch(() => undefined);
  if (!line) return { ...none, total: req.receivedAt - keydownAt };
  const total = req.receivedAt - keydownAt;
  const codeCache = /runtime ready in .*\(code cache: (\w+)\)/.exec(readFileSync(line.file, 'utf8'))?.[1] ?? '?';
  return { total, hop: line.at - keydownAt, own: req.receivedAt - line.at, steps: line.steps, reused, codeCache };
}

/** Every "first request" line in the Sextant logs of this run's windows: its arrival (epoch ms) and steps. */
function hostArrivals(wb: Workbench): { at: number; steps: Map<string, number>; file: string }[] {
  const logs = findFiles(join(wb.paths.userDataDir, 'logs'), (f) => /(^|\/)(\d+-)?Sextant\.log$/.test(f));
  return logs.flatMap((f) =>
    [...readFileSync(f, 'utf8').matchAll(/first request: .*\(epoch ([\d.]+) ms\)(?:; steps \(ms\): (.*))?/g)].map(
      (m) => ({
        file: f,
        at: Number(m[1]),
        steps: new Map(
          (m[2] ?? '')
            .split(', ')
            .filter(Boolean)
            .map((s) => {
              const cut = s.lastIndexOf(' ');
              return [s.slice(0, cut), Number(s.slice(cut + 1))] as [string, number];
            }),
        ),
      }),
    ),
  );
}

/** Sextant output-channel logs (one per extension host) that say the runtime is ready. */
function readyLogs(wb: Workbench): number {
  const logs = findFiles(join(wb.paths.userDataDir, 'logs'), (f) => /(^|\/)(\d+-)?Sextant\.log$/.test(f));
  return logs.filter((f) => readFileSync(f, 'utf8').includes('runtime ready')).length;
}

/** A fresh window (the extension host restarts) with the Sextant view open. */
async function freshWindow(wb: Workbench): Promise<void> {
  await wb.reloadWindow();
  await wb.openSextantView();
}

/**
 * The trend of `ys` over the run, robust to the single slow steps a loaded machine gives (Theil–Sen: the
 * median of every pair's slope, and the median intercept): its fitted last step ÷ its fitted first step.
 */
function fittedGrowth(ys: number[]): number {
  const slopes: number[] = [];
  for (let i = 0; i < ys.length; i++) for (let j = i + 1; j < ys.length; j++) slopes.push((ys[j] - ys[i]) / (j - i));
  const slope = median(slopes);
  const intercept = median(ys.map((y, i) => y - slope * i));
  return (intercept + slope * (ys.length - 1)) / intercept;
}

function range(xs: number[]): string {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return 'n/a';
  return `${s[0].toFixed(0)}–${s[s.length - 1].toFixed(0)}`;
}

/**
 * One Agent request of `steps` model turns in a new chat, each a read_file the policy allows, answered at
 * once by the fake model; Continue clicked at each step-limit pause as a user would. Answers every model
 * request as the fake server received it, and the steps whose gap spans a pause.
 */
async function agentRun(wb: Workbench, fake: FakeLlm, steps: number, text: string) {
  await wb.runPaletteCommand('Sextant: New Chat');
  const agent = wb.inWebview('radio', 'Agent');
  await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
  fake.reset();
  const files = ['src/greet.js', 'README.md', 'package.json'];
  fake.onRequest((req) => {
    const n = chatRequests(fake).indexOf(req) + 1;
    if (n > steps) return { text: 'Done reading.' };
    return {
      text: `Step ${n}.`,
      toolCalls: [{ name: 'read_file', arguments: { file_path: files[n % files.length] } }],
    };
  });
  await wb.typeMessage(text);
  if (process.env.REAL_WINDOW_HIDE) await wb.showExplorer();
  // An Agent run pauses every sextant.agent.maxSteps (100) model calls and offers Continue: the bench
  // clicks it as a user would, and leaves the gap that spans the pause out of the figures.
  const pauses: number[] = [];
  const cont = wb.inWebview('button', 'Continue');
  /** Continue buttons already answered (a past pause's button may stay in the chat). */
  let answered = 0;
  while (chatRequests(fake).length <= steps) {
    const before = chatRequests(fake).length;
    // The Continue button is looked for only once the run stops making requests: a query into the view
    // while it runs costs the window CPU that grows with the chat (a role query walks the whole DOM).
    let seen = -1;
    const state = await poll(
      `${steps + 1} model requests (${before} so far) or a Continue button`,
      async () => {
        const n = chatRequests(fake).length;
        if (n > steps) return 'done';
        if (n !== seen) {
          seen = n;
          return undefined;
        }
        // A hidden view may be gone (VS Code drops a hidden webview): it comes to the front to be looked at.
        if (process.env.REAL_WINDOW_HIDE) await wb.openSextantView();
        return (await cont.count()) > answered ? 'paused' : undefined;
      },
      15 * 60_000,
    );
    if (state === 'done') break;
    pauses.push(chatRequests(fake).length);
    await cont.last().click();
    if (process.env.REAL_WINDOW_HIDE) await wb.showExplorer();
    if (process.env.REAL_WINDOW_HIDE) await wb.showExplorer();
    await poll('the run to go on after Continue', async () => chatRequests(fake).length > before);
    answered = await cont.count();
  }
  const all = chatRequests(fake);
  if (process.env.REAL_WINDOW_HIDE) await wb.openSextantView();
  await poll(
    'the last answer',
    async () => (await wb.articles('Sextant').last().innerText()).includes('Done reading.'),
    120_000,
  );
  return { all, pauses };
}

const longRun = STEPS > 0 ? `, then a ${STEPS}-step Agent run` : '';

e2e.scenario(
  `real window: first use (${FIRST_USE_TRIES} fresh windows each)${longRun}`,
  async ({ wb, fake, figure }) => {
    // Typed the moment the view opens: the runtime may still be loading.
    const atOnce: FirstUse[] = [];
    const ready: FirstUse[] = [];
    for (let i = 0; i < FIRST_USE_TRIES; i++) {
      if (i === 0) await wb.openSextantView();
      else await freshWindow(wb);
      fake.reset();
      atOnce.push(await keydownToWire(wb, fake, `Hello ${i}`, `Ready ${i}.`));
      // Typed once the output channel says the runtime is ready, as a person's first question is.
      const before = readyLogs(wb);
      await freshWindow(wb);
      await poll('"runtime ready" in the new Sextant output channel', async () => readyLogs(wb) > before);
      fake.reset();
      ready.push(await keydownToWire(wb, fake, `Hello again ${i}`, `Ready again ${i}.`));
    }
    const report = (what: string, tries: FirstUse[], baseline: number[]) => {
      const xs = tries.map((t) => t.total);
      figure(`first use, ${what}: keydown → request on the wire ms, median`, Number(median(xs).toFixed(1)));
      figure(`first use, ${what}: range of ${xs.length} tries ms`, range(xs));
      const hop = tries.map((t) => t.hop);
      const own = tries.map((t) => t.own);
      figure(
        `first use, ${what}: of which keydown → at the extension host (VS Code's webview hop) ms, median`,
        `${median(hop).toFixed(1)} (${range(hop)})`,
      );
      figure(
        `first use, ${what}: of which at the extension host → on the wire (Sextant) ms, median`,
        `${median(own).toFixed(1)} (${range(own)})`,
      );
      figure(
        `first use, ${what}: each try ms, total (VS Code's hop + Sextant's part) [code cache]`,
        tries
          .map((t) => `${t.total.toFixed(0)} (${t.hop.toFixed(0)} + ${t.own.toFixed(0)}) [${t.codeCache}]`)
          .join(', '),
      );
      figure(
        `first use, ${what}: requests sent on a warmed connection`,
        `${tries.filter((t) => t.reused).length} of ${tries.length}`,
      );
      // Sextant's part step by step: each step's median over the tries, in the order they ran.
      const names = [...new Set(tries.flatMap((t) => [...t.steps.keys()]))];
      if (names.length)
        figure(
          `first use, ${what}: Sextant's steps ms, medians`,
          names.map((n) => `${n} ${median(tries.map((t) => t.steps.get(n) ?? Number.NaN)).toFixed(1)}`).join(', '),
        );
      figure(`first use, ${what}: before (ba89492, medians of three runs) ms`, baseline.join(', '));
    };
    report('typed as the view opens', atOnce, BASELINE.atOnce);
    report('typed once the runtime is ready (goal ≤ 50)', ready, BASELINE.ready);
    if (STEPS <= 0) return;

    // The window's own start-up (the extension host's and the workbench's, the TS server's after the last
    // reload) would land on the first steps: a warm-up run in a chat of its own first, then the timed one.
    if (WARMUP_STEPS > 0) await agentRun(wb, fake, WARMUP_STEPS, 'Warm up by reading the files');
    const idle = await waitForIdleWindow(e2e.runDir);
    figure(
      'long run: waited for the window to be idle (< 15 % of a core over 2 s) ms',
      `${idle.ms} (last 2 s: ${(idle.share * 100).toFixed(0)} % of a core)`,
    );
    const { all, pauses } = await agentRun(wb, fake, STEPS, 'Read the files again and again');
    const gaps = all
      .slice(1)
      .map((r, i) => ({ at: i + 1, ms: r.receivedAt - all[i].receivedAt }))
      .filter((g) => !pauses.includes(g.at))
      .map((g) => g.ms);
    // Each gap split where the fake server ended its answer: the server's part (reading and parsing the
    // request, the answer's bytes; in the bench's process) and the window's (the answer read, the tool run,
    // the journal, the view, the next request built and sent).
    const split = all
      .slice(1)
      .map((r, i) => ({
        at: i + 1,
        server: (all[i].endedAt ?? Number.NaN) - all[i].receivedAt,
        window: r.receivedAt - (all[i].endedAt ?? Number.NaN),
      }))
      .filter((g) => !pauses.includes(g.at));
    const ends = (xs: number[]) =>
      `${median(xs.slice(0, WINDOW)).toFixed(1)} → ${median(xs.slice(-WINDOW)).toFixed(1)}`;
    const windowPart = split.map((g) => g.window);
    figure(
      `long run${process.env.REAL_WINDOW_HIDE ? ', view hidden' : ''}: of which the window's part ms, first → last`,
      ends(windowPart),
    );
    // What Sextant does per step (the window's part, without the bench's own fake server, whose part grows
    // with the request it parses): the goal's figure.
    figure(
      `long run${process.env.REAL_WINDOW_HIDE ? ', view hidden' : ''}: the window's part, last ÷ first (goal ≤ 1.1)`,
      Number((median(windowPart.slice(-WINDOW)) / median(windowPart.slice(0, WINDOW))).toFixed(2)),
    );
    figure(
      'long run: of which the fake server’s part (in the bench) ms, first → last',
      ends(split.map((g) => g.server)),
    );
    const hiddenNote = process.env.REAL_WINDOW_HIDE ? ', view hidden' : '';
    figure(
      `long run${hiddenNote}: the window's part, fitted (Theil–Sen), last ÷ first`,
      Number(fittedGrowth(windowPart).toFixed(2)),
    );
    // The shape of the run: the window's part as medians of 10 steps, start to end.
    const tens: string[] = [];
    for (let i = 0; i < split.length; i += 10)
      tens.push(median(split.slice(i, i + 10).map((g) => g.window)).toFixed(0));
    figure("long run: the window's part, medians of 10 steps ms", tens.join(' '));
    const start = median(gaps.slice(0, WINDOW));
    const end = median(gaps.slice(-WINDOW));
    const hidden = process.env.REAL_WINDOW_HIDE ? ', view hidden' : '';
    figure(`long run${hidden}: ms per step, median of the first ${WINDOW}`, Number(start.toFixed(1)));
    figure(`long run${hidden}: ms per step, median of the last ${WINDOW}`, Number(end.toFixed(1)));
    figure(
      `long run${hidden}: whole step (the fake server's part too), last ÷ first`,
      Number((end / start).toFixed(2)),
    );
    figure(`long run${hidden}: whole step, fitted (Theil–Sen), last ÷ first`, Number(fittedGrowth(gaps).toFixed(2)));
    figure('long run: last ÷ first before (ba89492, three runs)', BASELINE.longRun.join(', '));
    const body = JSON.stringify(all[all.length - 1].body).length;
    figure('long run: request body at the last step KB', Number((body / 1024).toFixed(1)));
  },
  { timeoutMs: 30 * 60_000 },
);

e2e.run('Sextant in a real window: first use and a long run');
