// The longest event-loop stall while a page is turned into Markdown: Readability + turndown on the
// host's thread (how web_fetch and research read pages before) against the same bundle in a worker
// thread (HtmlWorkerConverter, how the runtime reads them now). The page is the largest of the shared
// Readability corpus (shared/testdata/readability), else the largest of our own corpus pages. A 1 ms
// heartbeat measures the longest gap between its ticks while each conversion runs. Prints figures.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ReadableHtml } from '../../extension/core/web/fetch/html-converter';
import { HtmlWorkerConverter } from '../../extension/core/web/fetch/html-worker-client';
import { ownPagesDir, sharedCorpusDir } from '../../test/fixtures/research/web-corpus';

const bundle = process.argv[2] as string;
const RUNS = 5;

function largestPage(): { name: string; html: string } {
  const shared = sharedCorpusDir();
  const files = shared
    ? readdirSync(shared).map((d) => join(shared, d, 'source.html'))
    : readdirSync(ownPagesDir())
        .filter((f) => f.endsWith('.html'))
        .map((f) => join(ownPagesDir(), f));
  const file = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  return { name: file.replace(/.*\/pages\//, ''), html: readFileSync(file, 'utf8') };
}

/** Runs `work` while a 1 ms heartbeat watches the loop; the longest gap between ticks, and the time. */
async function stallDuring(work: () => Promise<unknown>): Promise<{ stallMs: number; wallMs: number }> {
  let last = performance.now();
  let worst = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 1);
  // Let the heartbeat settle before the work starts.
  await new Promise((r) => setTimeout(r, 20));
  last = performance.now();
  worst = 0;
  const started = performance.now();
  await work();
  const wallMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(beat);
  return { stallMs: worst, wallMs };
}

const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `max ${s[s.length - 1].toFixed(1)} ms, median ${s[Math.floor(s.length / 2)].toFixed(1)} ms`;
};

async function main(): Promise<void> {
  const page = largestPage();
  const url = 'https://corpus.test/page/';
  console.log(`page: ${page.name}, ${(page.html.length / 1024).toFixed(0)} K characters; ${RUNS} runs each`);
  const inThread = require(bundle) as { htmlToMarkdown(html: string, url: string): ReadableHtml };
  const before = { stall: [] as number[], wall: [] as number[] };
  let chars = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await stallDuring(async () => {
      chars = inThread.htmlToMarkdown(page.html, url).markdown.length;
    });
    before.stall.push(r.stallMs);
    before.wall.push(r.wallMs);
  }
  console.log(`on the host thread (before): longest stall ${fmt(before.stall)}; conversion ${fmt(before.wall)}`);

  // The same heartbeat with nothing to do, for as long as a conversion takes: what the machine's load
  // alone costs the loop (a shared 2-core machine is rarely idle).
  const idle: number[] = [];
  const typical = before.wall.sort((a, b) => a - b)[Math.floor(RUNS / 2)];
  for (let i = 0; i < RUNS; i++)
    idle.push((await stallDuring(() => new Promise((r) => setTimeout(r, typical)))).stallMs);
  console.log(`nothing running (baseline):   longest gap ${fmt(idle)} over ${typical.toFixed(0)} ms`);

  const converter = new HtmlWorkerConverter({ file: bundle });
  const after = { stall: [] as number[], wall: [] as number[] };
  try {
    const first = await stallDuring(() => converter.htmlToMarkdown(page.html, url));
    for (let i = 0; i < RUNS; i++) {
      const r = await stallDuring(async () => {
        const out = await converter.htmlToMarkdown(page.html, url);
        if (out.markdown.length !== chars) throw new Error('the worker converted the page differently');
      });
      after.stall.push(r.stallMs);
      after.wall.push(r.wallMs);
    }
    console.log(
      `in a worker thread (after):  longest stall ${fmt(after.stall)}; conversion ${fmt(after.wall)} ` +
        `(first page, worker start included: stall ${first.stallMs.toFixed(1)} ms, ${first.wallMs.toFixed(0)} ms)`,
    );
  } finally {
    await converter.dispose();
  }
  console.log(`Markdown: ${chars.toLocaleString('en')} characters, the same both ways`);
}

void main();
