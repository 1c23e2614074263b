// Store benchmark: time to persist one event with 1, 10 and 100 MB of history, next to a
// naive export()-per-event; snapshot time, open time and process memory at those sizes.
// Every session stays in the in-memory database (`hot: false`), as before cold sessions: bench/memory.mjs
// compares the two layouts. Prints a table; asserts nothing.
// Usage: node bench/store.mjs [--sizes 1,10,100] [--events 2000]
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { appendExchange, dirBytes, proseGenerator } from './lib/history-fixture.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const SIZES = arg('sizes', '1,10,100').split(',').map(Number);
const EVENTS = Number(arg('events', '2000'));

const outfile = join(root, 'dist-bench', 'store-bench.cjs');
await bundleForNode({
  stdin: {
    contents: `export * from './extension/core/store';\nexport { loadSqlJs } from './extension/core/store/sqljs';`,
    resolveDir: root,
    loader: 'ts',
  },
  outfile,
});
const require = createRequire(import.meta.url);
const { openSessionStore, loadSqlJs } = require(outfile);

const wasmPath = join(root, 'node_modules/sql.js/dist/sql-wasm.wasm');
const t0 = performance.now();
const SQL = await loadSqlJs(wasmPath);
const wasmMs = performance.now() - t0;
const log = { info() {}, warn: (m) => console.error(`warn ${m}`), error: (m) => console.error(`error ${m}`) };

const prose = proseGenerator(42);

let sessionNo = 0;
/** Appends one session of `exchanges` question/answer pairs (~`bytesPer` bytes of text each). */
function addSession(store, exchanges, bytesPer) {
  const id = `s${++sessionNo}`;
  const at = 1_700_000_000_000 + sessionNo * 1000;
  store.append({
    kind: 'session_created',
    sessionId: id,
    title: prose(40).trim(),
    mode: 'agent',
    model: 'bench/model',
    at,
  });
  for (let e = 0; e < exchanges; e++) {
    const answer = prose(bytesPer);
    const question = prose(200);
    const detail = prose(1500);
    appendExchange(store, { sessionId: id, e, at, model: 'bench/model', question, answer, detail, deltaChars: 2000 });
  }
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => (x < 1 ? `${(x * 1000).toFixed(0)} µs` : `${x.toFixed(x < 10 ? 2 : 0)} ms`);
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;

/** One live request in a session, appending typical small streaming events. */
function timeAppends(store, n) {
  const id = 'live';
  const req = `live-${Math.random()}`;
  let seq = 0;
  const env = (event) => ({ requestId: req, seq: ++seq, ts: Date.now(), event });
  store.append({ kind: 'session_created', sessionId: id, title: 'live', mode: 'chat', model: 'm', at: Date.now() });
  store.append({
    kind: 'events',
    sessionId: id,
    at: Date.now(),
    envelopes: [
      env({
        type: 'started',
        userMessageId: `${req}u`,
        assistantMessageId: `${req}a`,
        text: 'go',
        mode: 'chat',
        model: 'm',
      }),
    ],
  });
  const times = [];
  for (let i = 0; i < n; i++) {
    const rec = {
      kind: 'events',
      sessionId: id,
      at: Date.now(),
      envelopes: [env({ type: 'text_delta', text: 'some streamed words, about one frame worth. ' })],
    };
    const t = performance.now();
    store.append(rec);
    times.push(performance.now() - t);
  }
  store.append({ kind: 'events', sessionId: id, at: Date.now(), envelopes: [env({ type: 'complete' })] });
  return times;
}

function naiveExportPerEvent(dir, n) {
  // What a store without a journal would do: export the whole database and write it durably per event.
  const db = new SQL.Database(require('node:fs').readFileSync(join(dir, 'sextant.db')));
  const file = join(dir, 'naive.db');
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('naive', ?)", [String(i)]);
    const bytes = db.export();
    const fd = openSync(file, 'w');
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    times.push(performance.now() - t);
  }
  db.close();
  rmSync(file, { force: true });
  return times;
}

const rows = [];
const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-store-'));
try {
  let store = await openSessionStore({
    dir,
    log,
    sql: SQL,
    snapshotDelayMs: 3_600_000,
    snapshotMaxDelayMs: 3_600_000,
    journalMaxBytes: 1e12,
    hot: false,
  });
  let textBytes = 0;
  let ratio = 5; // database bytes per byte of conversation text (text + search index), refined as we go
  for (const size of SIZES) {
    // Grow the history until sextant.db is ~size MB.
    const genStart = performance.now();
    let dbBytes = 0;
    for (;;) {
      // Small steps for small targets, so "1 MB" is not overshot by one big session.
      const exchanges = size < 5 ? 1 : 10;
      while (textBytes * ratio < size * 1e6) {
        addSession(store, exchanges, 8000);
        textBytes += exchanges * (8000 + 200);
      }
      await store.flush();
      dbBytes = statSync(join(dir, 'sextant.db')).size;
      ratio = dbBytes / textBytes;
      if (dbBytes >= 0.95 * size * 1e6) break;
    }
    const genMs = performance.now() - genStart;

    const batch = timeAppends(store, EVENTS);
    const always = await (async () => {
      await store.close();
      store = await openSessionStore({
        dir,
        log,
        sql: SQL,
        fsync: 'always',
        snapshotDelayMs: 3_600_000,
        snapshotMaxDelayMs: 3_600_000,
        journalMaxBytes: 1e12,
        hot: false,
      });
      const t = timeAppends(store, Math.min(EVENTS, 300));
      await store.close();
      return t;
    })();
    const naive = naiveExportPerEvent(dir, size >= 100 ? 5 : size >= 10 ? 10 : 30);

    const opens = [];
    const snaps = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      store = await openSessionStore({
        dir,
        log,
        sql: SQL,
        snapshotDelayMs: 3_600_000,
        snapshotMaxDelayMs: 3_600_000,
        journalMaxBytes: 1e12,
        hot: false,
      });
      opens.push(performance.now() - t);
      store.append({ kind: 'session_meta', sessionId: 's1', title: `t${i}`, at: Date.now() });
      const s = performance.now();
      await store.flush();
      snaps.push(performance.now() - s);
      if (i < 2) await store.close();
    }
    global.gc?.();
    const mem = process.memoryUsage();
    rows.push({
      size,
      dbBytes,
      folderBytes: dirBytes(dir),
      genMs,
      batchMed: pct(batch, 50),
      batchP99: pct(batch, 99),
      alwaysMed: pct(always, 50),
      alwaysP99: pct(always, 99),
      naiveMed: pct(naive, 50),
      naiveP99: pct(naive, 99),
      snapMed: pct(snaps, 50),
      openMed: pct(opens, 50),
      rss: mem.rss,
      heap: mem.heapUsed,
      external: mem.external + mem.arrayBuffers,
    });
    console.error(`… ${size} MB done (generated in ${(genMs / 1000).toFixed(1)} s)`);
  }
  await store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const title = `Store benchmark — Node ${process.version}, ${EVENTS} appends per size`;
console.log(`\n${title}; sql.js wasm load ${ms(wasmMs)}`);
console.log(
  'append = one text_delta event record: redact + JSON line write + reducer; "batch" = default fsync policy ' +
    '(fdatasync ≤25 ms later), "always" = fdatasync per record',
);
const header = [
  'history',
  'sextant.db',
  'append med (batch)',
  'append p99 (batch)',
  'append med (fsync each)',
  'append p99 (fsync each)',
  'naive export/event med',
  'naive p99',
  'snapshot',
  'open',
  'RSS',
  'JS heap',
  'wasm+buffers',
];
const table = rows.map((r) => [
  `${r.size} MB`,
  mb(r.dbBytes),
  ms(r.batchMed),
  ms(r.batchP99),
  ms(r.alwaysMed),
  ms(r.alwaysP99),
  ms(r.naiveMed),
  ms(r.naiveP99),
  ms(r.snapMed),
  ms(r.openMed),
  mb(r.rss),
  mb(r.heap),
  mb(r.external),
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of table) console.log(line(row));
