// The long run in a real VS Code window (code-server + headless Chromium, the e2e harness): a fresh
// window's first message (keydown in the view → request on the wire), then one Agent request of
// STEPS model turns, each a read_file the policy allows, answered instantly by the fake model. The
// time per step is the gap between two model requests as the fake server receives them, so it holds
// everything Sextant does per step in the real window: the extension host's request, tool, journal
// and view updates, and the webview's rendering of a growing chat. Prints figures; asserts nothing.
import { E2E } from '../../test/e2e/harness/e2e';
import { poll, waitUntil } from '../../test/e2e/harness/workbench';

const STEPS = Number(process.env.REAL_WINDOW_STEPS ?? 150);
/** Steps averaged at each end: a window of medians, so one slow step (a GC, the TS server) does not decide. */
const WINDOW = 15;

const e2e = new E2E();

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

e2e.scenario(
  `real window: first use, then a ${STEPS}-step Agent run`,
  async ({ wb, fake, figure }) => {
    fake.enqueue({ text: 'Ready.' });
    await wb.openSextantView();
    await wb.typeMessage('Hello', { send: false });
    const box = wb.inWebview('textbox', 'Message');
    await box.evaluate((el) => {
      const w = el.ownerDocument.defaultView as (Window & { sextantKeydownAt?: number }) | null;
      el.ownerDocument.addEventListener(
        'keydown',
        () => {
          if (w) w.sextantKeydownAt = performance.timeOrigin + performance.now();
        },
        { capture: true, once: true },
      );
    });
    await box.press('Enter');
    const first = (await fake.waitForRequests(1)).filter((r) => r.api === 'openai');
    if (first.length === 0)
      await poll('the first model request', async () => fake.requests.some((r) => r.api === 'openai'));
    first.push(...fake.requests.filter((r) => r.api === 'openai' && !first.includes(r)));
    const keydownAt = await box.evaluate(
      (el) => (el.ownerDocument.defaultView as (Window & { sextantKeydownAt?: number }) | null)?.sextantKeydownAt,
    );
    if (keydownAt !== undefined)
      figure(
        'first use: keydown in the view → request on the wire ms',
        Number((first[0].receivedAt - keydownAt).toFixed(1)),
      );
    await poll('the first answer', async () => (await wb.articles('Sextant').last().innerText()).includes('Ready.'));

    await wb.runPaletteCommand('Sextant: New Chat');
    const agent = wb.inWebview('radio', 'Agent');
    await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
    fake.reset();
    const files = ['src/greet.js', 'README.md', 'package.json'];
    const chat = () => fake.requests.filter((r) => r.api === 'openai');
    fake.onRequest((req) => {
      const n = chat().indexOf(req) + 1;
      if (n > STEPS) return { text: 'Done reading.' };
      return {
        text: `Step ${n}.`,
        toolCalls: [{ name: 'read_file', arguments: { file_path: files[n % files.length] } }],
      };
    });
    await wb.typeMessage('Read the files again and again');
    // An Agent run pauses every sextant.agent.maxSteps (100) model calls and offers Continue: the bench
    // clicks it as a user would, and leaves the gap that spans the pause out of the figures.
    const pauses: number[] = [];
    const cont = wb.inWebview('button', 'Continue');
    /** Continue buttons already answered (a past pause's button may stay in the chat, disabled). */
    let answered = 0;
    while (chat().length <= STEPS) {
      const before = chat().length;
      const state = await poll(
        `${STEPS + 1} model requests (${before} so far) or a Continue button`,
        async () => (chat().length > STEPS ? 'done' : (await cont.count()) > answered ? 'paused' : undefined),
        15 * 60_000,
      );
      if (state === 'done') break;
      pauses.push(chat().length);
      await cont.last().click();
      await poll('the run to go on after Continue', async () => chat().length > before);
      answered = await cont.count();
    }
    const all = chat();
    await poll(
      'the last answer',
      async () => (await wb.articles('Sextant').last().innerText()).includes('Done reading.'),
      120_000,
    );
    const gaps = all
      .slice(1)
      .map((r, i) => ({ at: i + 1, ms: r.receivedAt - all[i].receivedAt }))
      .filter((g) => !pauses.includes(g.at))
      .map((g) => g.ms);
    const start = median(gaps.slice(0, WINDOW));
    const end = median(gaps.slice(-WINDOW));
    figure(`long run: ms per step, median of the first ${WINDOW}`, Number(start.toFixed(1)));
    figure(`long run: ms per step, median of the last ${WINDOW}`, Number(end.toFixed(1)));
    figure(`long run: last ÷ first (goal ≤ 1.1)`, Number((end / start).toFixed(2)));
    const body = JSON.stringify(all[all.length - 1].body).length;
    figure('long run: request body at the last step KB', Number((body / 1024).toFixed(1)));
  },
  { timeoutMs: 15 * 60_000 },
);

e2e.run('Sextant in a real window: first use and a long run');
