// Memory benchmark: what a window holds and how long a snapshot takes at 1, 10 and 100 MB of history
// (1 GB with SEXTANT_BENCH_1GB=1 or --sizes …,1000: generating it takes about 8 minutes on an idle 2-core
// machine), before (every session in the in-memory database, `hot: false`) and after (older sessions in
// cold files, the default policy). "History" is the size of sextant.db in the before layout; the after
// layout gets the same sessions.
// Each measurement runs in a fresh Node process that opens the store as a window would: RSS, JS heap,
// array buffers, external memory (the database's bytes: file-bytes.ts keeps them in memories of their own,
// outside malloc), sql.js's wasm memory, open time, snapshot time, and resuming / searching
// an old session (the first search of the window). RSS is read after gc() twice: at once, and 200 ms later
// (settled: see measure()). It depends on what transient peaks leave resident (malloc, V8's pages), so
// each layout is measured in --runs fresh processes (default 3), each on a fresh copy of the generated
// folder, and the table gives the medians (RSS also its range).
// Generated folders are kept in $TMPDIR/sextant-bench-memory/<key>/, where the key names the generator's
// version, the store's schema and the search segment format: a run reuses them while those are the same,
// and generates again (removing other keys' folders) when one changes.
// Prints a table; asserts nothing. Usage: node bench/memory.mjs [--sizes 1,10,100[,1000]] [--runs 3]
import { storeBenchModule } from './lib/store-bench.mjs';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { appendExchange, dirBytes, proseGenerator } from './lib/history-fixture.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const SIZES = arg('sizes', process.env.SEXTANT_BENCH_1GB ? '1,10,100,1000' : '1,10,100')
  .split(',')
  .map(Number);
const RUNS = Number(arg('runs', '3'));
const ROOT = join(tmpdir(), 'sextant-bench-memory');
/** Bump when what addSession/generate write changes: cached folders are then generated again. */
const GENERATOR_VERSION = 2;
const NOW = 1_800_000_000_000;
const DAY = 86_400_000;

const { module: storeModule } = await storeBenchModule('memory-bench', { build: !process.env.SEXTANT_BENCH_CHILD });
const { openSessionStore, loadSqlJs, searchSessions, SCHEMA_VERSION, SEGMENT_FORMAT } = storeModule;
const KEY = `gen${GENERATOR_VERSION}-schema${SCHEMA_VERSION}-segments${SEGMENT_FORMAT}`;
const BASE = join(ROOT, KEY);
const wasmPath = join(root, 'node_modules/sql.js/dist/sql-wasm.wasm');
const log = { info() {}, warn: (m) => console.error(`warn ${m}`), error: (m) => console.error(`error ${m}`) };

const prose = proseGenerator(42);

/** Session `n` of a history of `total` sessions spread over the last year; 10 exchanges of ~8 KB. */
function addSession(store, n, total) {
  const id = `s${n}`;
  const at = NOW - Math.floor(((total - n) / total) * 365 * DAY);
  // The store's clock follows the history being written, as if it had been used over the year.
  clock = at + 60_000;
  store.append({ kind: 'session_created', sessionId: id, title: prose(40).trim(), mode: 'agent', model: 'm/m', at });
  for (let e = 0; e < 10; e++) {
    const answer = prose(8000);
    // One rare phrase in the oldest session: the search of an old session looks for it.
    const question = `${n === 1 && e === 0 ? 'zanzibar quokka ' : ''}${prose(200)}`;
    appendExchange(store, { sessionId: id, e, at, model: 'm/m', question, answer, detail: prose(1500) });
  }
}

/** What the store takes for "now": the time of the session being written while generating, then NOW. */
let clock = NOW;
const storeOpts = (dir, layout) => ({
  dir,
  log,
  wasmPath,
  now: () => clock,
  snapshotDelayMs: 3_600_000,
  snapshotMaxDelayMs: 3_600_000,
  journalMaxBytes: 1e12,
  ...(layout === 'before' ? { hot: false } : {}),
});

/** Generates (once) a folder; `before` grows until sextant.db reaches `mb`, `after` takes `sessions`. */
async function generate(layout, mb, sessions) {
  const dir = join(BASE, `${layout}-${mb}`);
  const marker = join(dir, 'bench-done.json');
  if (existsSync(marker)) return JSON.parse(readFileSync(marker, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const SQL = await loadSqlJs(wasmPath);
  const t0 = performance.now();
  const store = await openSessionStore({ ...storeOpts(dir, layout), sql: SQL });
  let n = 0;
  const total = sessions ?? Math.ceil(mb * 2.2);
  for (;;) {
    addSession(store, ++n, total);
    const step = mb <= 10 ? 1 : 20;
    if (n % step === 0) await store.flush();
    if (sessions !== undefined ? n >= sessions : n % step === 0 && statSync(join(dir, 'sextant.db')).size >= mb * 1e6)
      break;
  }
  clock = NOW;
  await store.flush();
  await store.close();
  const info = { sessions: n, genMs: performance.now() - t0 };
  writeFileSync(marker, JSON.stringify(info));
  return info;
}

/** Runs in a fresh process: open, snapshot, resume and search an old session; prints JSON. */
async function measure(dir, layout) {
  // sql.js's wasm memory (the SQLite heap: it grows and never shrinks), counted in `external`, not in
  // `arrayBuffers`: found among the instance's exports.
  const memories = [];
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => {
    const result = await instantiate(...args);
    for (const v of Object.values((result.instance ?? result).exports))
      if (v instanceof WebAssembly.Memory) memories.push(v);
    return result;
  };
  const mem0 = process.memoryUsage();
  const t0 = performance.now();
  const store = await openSessionStore(storeOpts(dir, layout));
  const openMs = performance.now() - t0;
  const snaps = [];
  for (let i = 0; i < 3; i++) {
    store.append({ kind: 'session_meta', sessionId: 's2', title: `t${i}`, at: NOW });
    const s = performance.now();
    await store.flush();
    snaps.push(performance.now() - s);
  }
  let t = performance.now();
  const old = store.getSession('s1');
  const resumeMs = performance.now() - t;
  t = performance.now();
  const hits = await searchSessions(store, 'zanzibar quokka');
  const searchMs = performance.now() - t;
  global.gc?.();
  const atOnce = process.memoryUsage();
  // V8 sweeps dead array buffers (the snapshots' exported bytes, file reads) off the main thread after a
  // collection, so right after gc() RSS may still hold some that are already garbage: read again once a
  // timer has let the sweep finish. The table gives both; the settled figure is what the window keeps.
  await new Promise((resolve) => setTimeout(resolve, 200));
  global.gc?.();
  const mem = process.memoryUsage();
  await store.close();
  process.stdout.write(
    JSON.stringify({
      openMs,
      snapMs: snaps.sort((a, b) => a - b)[1],
      resumeMs,
      searchMs,
      found: hits[0]?.id === 's1' && old?.messages.length === 20,
      rss: mem.rss,
      rssAtOnce: atOnce.rss,
      heap: mem.heapUsed,
      buffers: mem.arrayBuffers,
      external: mem.external,
      wasm: memories.reduce((n, m) => n + m.buffer.byteLength, 0),
      baseRss: mem0.rss,
      dbBytes: statSync(join(dir, 'sextant.db')).size,
      folderBytes: dirBytes(dir),
    }),
  );
}

if (process.env.SEXTANT_BENCH_CHILD) {
  await measure(process.env.SEXTANT_BENCH_DIR, process.env.SEXTANT_BENCH_LAYOUT);
  process.exit(0);
}

mkdirSync(BASE, { recursive: true });
// Folders generated by another generator or store format are of no further use.
for (const other of readdirSync(ROOT)) if (other !== KEY) rmSync(join(ROOT, other), { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const rows = [];
let perMb;
for (const mb of SIZES) {
  for (const layout of ['before', 'after']) {
    if (layout === 'before' && mb >= 1000) {
      rows.push({ mb, layout, skipped: 'not measured: export() of a 1 GB database needs over 2 GB of wasm memory' });
      continue;
    }
    let info;
    const cached = existsSync(join(BASE, `${layout}-${mb}`, 'bench-done.json'));
    if (layout === 'before') {
      info = await generate(layout, mb);
      perMb = info.sessions / mb;
    } else {
      const sessions = rows.find((r) => r.mb === mb && r.layout === 'before')?.sessions ?? Math.round(perMb * mb);
      info = await generate(layout, mb, sessions);
    }
    console.error(
      `… ${layout} ${mb} MB: ${info.sessions} sessions (generated in ${(info.genMs / 1000).toFixed(0)} s` +
        `${cached ? ', reused' : ''})`,
    );
    const runs = [];
    let failed;
    for (let k = 0; k < RUNS && !failed; k++) {
      // Each run on a fresh copy: measuring writes snapshots, and the generated folder stays as generated.
      const work = join(ROOT, `run-${process.pid}`);
      rmSync(work, { recursive: true, force: true });
      cpSync(join(BASE, `${layout}-${mb}`), work, { recursive: true });
      const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], {
        env: { ...process.env, SEXTANT_BENCH_CHILD: '1', SEXTANT_BENCH_DIR: work, SEXTANT_BENCH_LAYOUT: layout },
        encoding: 'utf8',
        maxBuffer: 1e7,
      });
      rmSync(work, { recursive: true, force: true });
      if (r.status !== 0) failed = `failed: ${r.stderr.slice(-300)}`;
      else runs.push(JSON.parse(r.stdout));
    }
    if (failed) {
      rows.push({ mb, layout, skipped: failed });
      continue;
    }
    const med = Object.fromEntries(
      ['openMs', 'snapMs', 'resumeMs', 'searchMs', 'rss', 'rssAtOnce', 'heap', 'buffers', 'external', 'wasm'].map(
        (k) => [k, median(runs.map((x) => x[k]))],
      ),
    );
    const rss = runs.map((x) => x.rss);
    rows.push({
      mb,
      layout,
      sessions: info.sessions,
      ...runs[0],
      ...med,
      rssMin: Math.min(...rss),
      rssMax: Math.max(...rss),
      found: runs.every((x) => x.found),
    });
  }
}

const ms = (x) => (x < 10 ? `${x.toFixed(1)} ms` : `${x.toFixed(0)} ms`);
const mbs = (b) => `${(b / 1e6).toFixed(1)} MB`;
console.log(
  `\nMemory benchmark — a fresh process opens the store (hot = in-memory sql.js database); median of ${RUNS} run(s)`,
);
const header = [
  'history',
  'layout',
  'sessions',
  'sextant.db',
  'folder',
  'open',
  'snapshot',
  'resume old',
  'first search',
  'RSS (min–max)',
  'RSS at once',
  'JS heap',
  'array buffers',
  'external',
  'wasm memory',
];
const table = rows.map((r) =>
  r.skipped
    ? [`${r.mb} MB`, r.layout, r.skipped, ...header.slice(3).map(() => '')]
    : [
        `${r.mb} MB`,
        r.layout,
        String(r.sessions),
        mbs(r.dbBytes),
        mbs(r.folderBytes),
        ms(r.openMs),
        ms(r.snapMs),
        ms(r.resumeMs),
        `${ms(r.searchMs)}${r.found ? '' : ' (miss!)'}`,
        `${mbs(r.rss)} (${(r.rssMin / 1e6).toFixed(0)}–${(r.rssMax / 1e6).toFixed(0)})`,
        mbs(r.rssAtOnce),
        mbs(r.heap),
        mbs(r.buffers),
        mbs(r.external),
        mbs(r.wasm),
      ],
);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of table) console.log(line(row));
// The goal (issue 26): a window's memory flat in history, RSS at 1 GB ≤ 1.1 × RSS at 100 MB (settled medians).
const measured = rows.filter((r) => r.layout === 'after' && !r.skipped);
const base = measured.find((r) => r.mb === 100) ?? measured[0];
for (const r of measured)
  if (r !== base && r.mb > base.mb)
    console.log(`RSS at ${r.mb} MB ÷ RSS at ${base.mb} MB of history (after): ${(r.rss / base.rss).toFixed(2)}×`);
