// History view benchmark (prints figures, asserts nothing): the production webview bundle in headless
// Chromium, as the host drives it — the History view opened with its first page of 100 sessions (more
// to come), then pages appended until 1,000 and 10,000 sessions are loaded, and the list scrolled from
// top to bottom. Reports the time from the `history` message to the first rows painted, the time to
// append a page, the frames while scrolling, and how many rows are in the DOM (windowed rendering
// keeps it flat).
// Usage: node bench/history-view.mjs [--sizes 1000,10000]
import { buildBenchWebview } from './lib/bench-webview.mjs';
import { history, snapshot } from './lib/stream-fixture.mjs';

const i = process.argv.indexOf('--sizes');
const SIZES = (i > 0 ? process.argv[i + 1] : '1000,10000').split(',').map(Number);
const PAGE = 100; // the host's HISTORY_PAGE

const { outdir, openBenchPage } = await buildBenchWebview();

const TOPICS = ['fix the build', 'review the parser', 'research caching', 'plan the release'];
const sessions = (from, n) =>
  Array.from({ length: n }, (_, k) => ({
    id: `s${from + k}`,
    title: `Session ${from + k}: ${TOPICS[k % 4]}`,
    updatedAt: 1_700_000_000_000 - (from + k) * 60_000,
    messageCount: 2 + ((from + k) % 40),
    mode: ['chat', 'agent', 'plan', 'research'][k % 4],
  }));

function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))];
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1], n: s.length };
}
const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

console.log('\n## History view in the webview (production bundle, headless Chromium, 420×900)');
console.log(
  'sessions loaded   first page painted   append a page (median)   scroll frames median / p95 / max   rows in DOM',
);
for (const total of SIZES) {
  const bench = await openBenchPage(outdir);
  try {
    const { page } = bench;
    await page.evaluate(
      async (s) => {
        const done = new Promise((r) => window.addEventListener('sextant-render', r, { once: true }));
        window.postMessage(s, '*');
        await done;
      },
      snapshot(history(4)),
    );
    // Paint = two animation frames after the message: the frame that renders, and the one after it.
    const post = (message) =>
      page.evaluate(async (m) => {
        const t0 = performance.now();
        window.postMessage(m, '*');
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return performance.now() - t0;
      }, message);
    await post({ type: 'showView', view: 'history' });
    const first = await post({ type: 'history', sessions: sessions(0, PAGE), hasMore: total > PAGE });
    const appends = [];
    for (let offset = PAGE; offset < total; offset += PAGE) {
      appends.push(
        await post({ type: 'history', sessions: sessions(offset, PAGE), offset, hasMore: offset + PAGE < total }),
      );
    }
    const scroll = await page.evaluate(async () => {
      const list = document.querySelector('sx-history');
      if (!list) throw new Error('no sx-history element');
      const frames = [];
      let maxRows = 0;
      let last = performance.now();
      for (let top = 0; top < list.scrollHeight - list.clientHeight; top += 240) {
        list.scrollTop = top;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        frames.push(now - last);
        last = now;
        maxRows = Math.max(maxRows, list.querySelectorAll('li').length);
      }
      return { frames, maxRows };
    });
    const f = stats(scroll.frames);
    const a = appends.length ? ms(stats(appends).median) : '—';
    console.log(
      `${String(total).padStart(15)}   ${ms(first).padStart(18)}   ${a.padStart(22)}   ` +
        `${`${ms(f.median)} / ${ms(f.p95)} / ${ms(f.max)}`.padStart(33)}   ${String(scroll.maxRows).padStart(11)}`,
    );
  } finally {
    await bench.close();
  }
}
