// Webview streaming benchmark (prints figures, asserts nothing). With 20 and with 2,000 messages
// already in the chat, streams a 5,000-token answer the way the host does (one batched `events`
// post per animation frame) into the production bundle in headless Chromium, and reports, from
// inside the page: post size, the render work each update triggers, receipt-to-DOM latency, and
// animation-frame intervals. Post size and frame time should not grow with history length.
// Usage: node bench/webview-stream.mjs [--tokens 5000] [--per-frame 8]
import { buildBenchWebview } from './lib/bench-webview.mjs';
import { answerTokens, history, snapshot, streamPosts } from './lib/stream-fixture.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TOKENS = arg('--tokens', 5000);
const PER_FRAME = arg('--per-frame', 8);
const HISTORIES = [20, 2000];

const { outdir, openBenchPage } = await buildBenchWebview();

function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))];
  return { median: q(0.5), p95: q(0.95), max: s[s.length - 1], n: s.length };
}

async function scenario(historyLength) {
  const bench = await openBenchPage(outdir);
  try {
    const { page } = bench;
    const snap = snapshot(history(historyLength));
    const snapshotBytes = Buffer.byteLength(JSON.stringify(snap));
    const posts = streamPosts(answerTokens(TOKENS), PER_FRAME);
    const postBytes = posts.map((p) => Buffer.byteLength(JSON.stringify(p)));
    const snapshotMs = await page.evaluate(async (s) => {
      const t0 = performance.now();
      const done = new Promise((r) => window.addEventListener('sextant-render', r, { once: true }));
      window.postMessage(s, '*');
      await done;
      return performance.now() - t0;
    }, snap);
    const result = await page.evaluate(async (all) => {
      const w = window;
      w.__keepTimings = true;
      w.__renderTimings.length = 0;
      const frames = [];
      let last = 0;
      await new Promise((resolve) => {
        let i = 0;
        const frame = (t) => {
          if (last) frames.push(t - last);
          last = t;
          if (i < all.length) {
            window.postMessage(all[i++], '*');
            requestAnimationFrame(frame);
          } else resolve();
        };
        requestAnimationFrame(frame);
      });
      // Let the last render land.
      await new Promise((r) => setTimeout(r, 200));
      w.__keepTimings = false;
      return {
        frames,
        timings: w.__renderTimings.slice(),
        domNodes: document.getElementsByTagName('*').length,
        articles: document.getElementsByTagName('article').length,
        answerChars: document.querySelector('sx-message:last-of-type article')?.textContent?.length ?? 0,
      };
    }, posts);
    return {
      historyLength,
      snapshotBytes,
      snapshotMs,
      post: stats(postBytes.slice(1, -1)),
      work: stats(result.timings.map((t) => t.renderedAt - t.startedAt)),
      latency: stats(result.timings.map((t) => t.renderedAt - t.receivedAt)),
      frame: stats(result.frames),
      renders: result.timings.length,
      worstWork: result.timings
        .map((t, i) => [t.renderedAt - t.startedAt, i])
        .sort((a, b) => b[0] - a[0])
        .slice(0, 3)
        .map(([ms, i]) => `#${i}:${ms.toFixed(1)}`)
        .join(' '),
      worstFrame: result.frames
        .map((ms, i) => [ms, i])
        .sort((a, b) => b[0] - a[0])
        .slice(0, 3)
        .map(([ms, i]) => `#${i}:${ms.toFixed(0)}`)
        .join(' '),
      posts: posts.length,
      domNodes: result.domNodes,
      articles: result.articles,
    };
  } finally {
    await bench.close();
  }
}

const rows = [];
for (const n of HISTORIES) rows.push(await scenario(n));

const f = (x) => (typeof x === 'number' ? (Number.isInteger(x) ? String(x) : x.toFixed(2)) : String(x));
const line = (label, pick) => `${label.padEnd(44)}${rows.map((r) => f(pick(r)).padStart(28)).join('')}`;
console.log(
  `Streaming ${TOKENS} tokens, ${PER_FRAME} tokens per post (≈1 post per frame), ` +
    'production bundle, headless Chromium',
);
console.log(`${''.padEnd(44)}${rows.map((r) => `${r.historyLength} msgs`.padStart(28)).join('')}`);
console.log(line('initial snapshot size (bytes)', (r) => r.snapshotBytes));
console.log(line('initial snapshot render (ms)', (r) => r.snapshotMs));
console.log(line('posts sent / renders', (r) => `${r.posts}/${r.renders}`));
for (const [k, label] of [
  ['median', 'median'],
  ['p95', 'p95'],
  ['max', 'max'],
])
  console.log(line(`post size, ${label} (bytes)`, (r) => r.post[k]));
for (const [k, label] of [
  ['median', 'median'],
  ['p95', 'p95'],
  ['max', 'max'],
])
  console.log(line(`render work per update, ${label} (ms)`, (r) => r.work[k]));
for (const [k, label] of [
  ['median', 'median'],
  ['p95', 'p95'],
  ['max', 'max'],
])
  console.log(line(`receipt → DOM updated, ${label} (ms)`, (r) => r.latency[k]));
for (const [k, label] of [
  ['median', 'median'],
  ['p95', 'p95'],
  ['max', 'max'],
])
  console.log(line(`frame interval, ${label} (ms)`, (r) => r.frame[k]));
console.log(line('slowest renders (#update:ms)', (r) => r.worstWork));
console.log(line('longest frames (#frame:ms)', (r) => r.worstFrame));
console.log(line('DOM elements at the end', (r) => r.domNodes));
console.log(line('articles rendered (window of the chat)', (r) => r.articles));
