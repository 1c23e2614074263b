// First use → first request on the wire, and the History list's open and search time, at 10, 1,000
// and 10,000 sessions. Prints figures; asserts nothing.
// Usage: node bench/history.mjs [--sizes 10,1000,10000] [--runs 9]
//
// First use: a fresh Node process (nothing cached, like a window's first chat) opens the store from
// a folder holding N sessions, journals the request's first record and sends a request to a local
// HTTP server; the figure is the time until the server has the request. "waiting" is what the runtime
// did before (await openSessionStore: wasm + snapshot + journal replay, then the request); "lazy" is
// what it does now (openSessionStoreLazily: the journal writer at once, the database in the
// background). Both load dist/provider-openai.js first, as the first request does. Key lookups
// (VS Code's secret storage) are the same in both and not included.
//
// History: the host's work for one `history` message — the first page (100 rows) now, the old
// 200-row list before — and a ranked search (memory search + summaries), on the opened store.
import { storeBenchModule } from './lib/store-bench.mjs';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const SIZES = arg('sizes', '10,1000,10000').split(',').map(Number);
const RUNS = Number(arg('runs', '9'));

const { outfile, module: storeModule } = await storeBenchModule('history-bench');
const { openSessionStore, loadSqlJs, searchSessions } = storeModule;
const wasmPath = existsSync(join(root, 'dist/sql-wasm.wasm'))
  ? join(root, 'dist/sql-wasm.wasm')
  : join(root, 'node_modules/sql.js/dist/sql-wasm.wasm');
const providerBundle = join(root, 'dist/provider-openai.js');
const log = { info() {}, warn: (m) => console.error(`warn ${m}`), error: (m) => console.error(`error ${m}`) };

let seed = 7;
const rnd = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const WORDS = Array.from({ length: 3000 }, () =>
  Array.from({ length: 3 + Math.floor(rnd() * 7) }, () => String.fromCharCode(97 + Math.floor(rnd() * 26))).join(''),
);
const prose = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');

/** N sessions of one exchange each (~1.5 KB of text), then a snapshot: a long-used history. */
async function buildStore(dir, n, SQL) {
  const store = await openSessionStore({ dir, log, sql: SQL, snapshotDelayMs: 3_600_000 });
  for (let i = 0; i < n; i++) {
    const id = `s${i}`;
    const at = 1_700_000_000_000 + i * 60_000;
    store.append({ kind: 'session_created', sessionId: id, title: prose(5), mode: 'agent', model: 'm/m', at });
    let seq = 0;
    const env = (event) => ({ requestId: `${id}-r`, seq: ++seq, ts: at, event });
    store.append({
      kind: 'events',
      sessionId: id,
      at,
      envelopes: [
        env({
          type: 'started',
          userMessageId: `${id}-u`,
          assistantMessageId: `${id}-a`,
          text: prose(30),
          mode: 'agent',
          model: 'm/m',
        }),
        env({ type: 'text_delta', text: prose(200) }),
        env({ type: 'complete' }),
      ],
    });
  }
  // Two snapshots, as a long-used history has had: the journal segments they both hold are deleted.
  await store.flush();
  await store.flush();
  await store.close();
}

// The child: one first use, in a fresh process. argv: mode dir wasm outfile providerBundle port
// The model's server is this (parent) process, as a real provider is another machine: a server inside
// the child would only see the request once the child's event loop is free, which is not "on the wire".
// Modes: "waiting" and "lazy" start at the first use (store code and SDK bundle loaded, then the store
// opened — awaited or in the background — then the request); "send" is a Send a moment after the view
// showed: the runtime, store code and SDK bundle are loaded (the runtime warms the SDK bundle while the
// user types), the database is still opening in the background, and the clock starts at the Send.
const child = `
const [mode, dir, wasmPath, bundle, providerBundle, port] = process.argv.slice(1);
const http = require('node:http');
const now = () => performance.timeOrigin + performance.now();
let t0 = now();
const parts = {};
let t = performance.now();
const lap = () => { const d = performance.now() - t; t = performance.now(); return d; };
const { openSessionStore, openSessionStoreLazily } = require(bundle);
parts.require = lap();
const log = { info() {}, warn() {}, error: (m) => console.error(m) };
const opts = { dir, wasmPath, log };
const send = () => {
  const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
  const req = http.request({ host: '127.0.0.1', port: Number(port), method: 'POST', path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
  req.on('error', () => {});
  req.on('response', (res) => { res.resume(); res.on('end', () => process.exit(0)); });
  req.end(body);
};
const first = { kind: 'session_created', sessionId: 'new', title: '', mode: 'chat', model: 'm/m', at: Date.now() };
(async () => {
  if (mode === 'send') {
    require(providerBundle);
    const store = openSessionStoreLazily(opts);
    t0 = now();
    store.append(first);
    console.log(JSON.stringify({ t0, parts, storeOpen: store.isOpen }));
    send();
    return;
  }
  const store = mode === 'lazy' ? openSessionStoreLazily(opts) : await openSessionStore(opts);
  store.append(first);
  parts.store = lap();
  require(providerBundle);
  parts.sdk = lap();
  console.log(JSON.stringify({ t0, parts }));
  send();
})();
`;

/** One first use in a fresh process: ms from its start (or its Send) to the request at this server. */
function firstUse(mode, dir) {
  return new Promise((resolve, reject) => {
    let arrived;
    const server = createServer((req, res) => {
      arrived ??= performance.timeOrigin + performance.now();
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    server.listen(0, '127.0.0.1', () => {
      const args = ['-e', child, mode, dir, wasmPath, outfile, providerBundle, String(server.address().port)];
      const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      proc.stdout.on('data', (d) => (out += d));
      proc.stderr.on('data', (d) => (err += d));
      proc.on('exit', (code) => {
        server.close();
        if (code !== 0 || arrived === undefined) return reject(new Error(err || `child exited ${code}`));
        const r = JSON.parse(out.trim().split('\n').pop());
        resolve({ onWire: arrived - r.t0, parts: r.parts, storeOpen: r.storeOpen });
      });
    });
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs) => Math.max(...xs);
const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const time = (fn) => {
  const t = performance.now();
  const out = fn();
  return [performance.now() - t, out];
};

if (!existsSync(providerBundle)) {
  console.error('dist/provider-openai.js is missing: run `node esbuild.mjs --production` (or npm run bench) first');
  process.exit(1);
}
const SQL = await loadSqlJs(wasmPath);
console.log(`\n## First use → first request on the wire (fresh Node process each run, n=${RUNS})`);
console.log('sessions   waiting for the store (before)   store opening in the background (now)');
const built = [];
const sendLines = [];
for (const n of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), `sextant-bench-history-${n}-`));
  built.push([n, dir]);
  await buildStore(dir, n, SQL);
  const waiting = [];
  const lazy = [];
  const lazyParts = [];
  const sends = [];
  let stillOpening = 0;
  for (let i = 0; i < RUNS; i++) {
    // Alternate so all see the same disk cache and machine load.
    waiting.push((await firstUse('waiting', dir)).onWire);
    const l = await firstUse('lazy', dir);
    lazy.push(l.onWire);
    lazyParts.push(l.parts);
    const s = await firstUse('send', dir);
    sends.push(s.onWire);
    if (!s.storeOpen) stillOpening++;
  }
  console.log(
    `${String(n).padStart(8)}   median ${ms(median(waiting)).padStart(7)}, max ${ms(max(waiting)).padStart(7)}` +
      `        median ${ms(median(lazy)).padStart(7)}, max ${ms(max(lazy)).padStart(7)}`,
  );
  sendLines.push(
    `${String(n).padStart(8)}   median ${ms(median(sends)).padStart(7)}, max ${ms(max(sends)).padStart(7)}` +
      `   (database still opening at the Send in ${stillOpening} of ${RUNS} runs)`,
  );
  const part = (k) => ms(median(lazyParts.map((p) => p[k])));
  console.log(
    `           (now: loading the store code ${part('require')}, journal writer + first record ${part('store')}, ` +
      `loading the SDK bundle ${part('sdk')})`,
  );
}

console.log('\n## Send → request on the wire, the view already up (runtime and SDK bundle loaded, store opening)');
console.log('sessions   Send → on the wire');
for (const line of sendLines) console.log(line);

console.log('\n## History list (host side: one `history` message) and ranked search, on the opened store');
console.log('sessions   open: first page of 100 (now)   all-200 list (before)   search (ranked, 3 queries)');
for (const [n, dir] of built) {
  const store = await openSessionStore({ dir, log, sql: SQL, snapshotDelayMs: 3_600_000 });
  const page = [];
  const before = [];
  const search = [];
  for (let i = 0; i < RUNS; i++) {
    page.push(time(() => JSON.stringify(store.listSessions({ limit: 101, offset: 0 })))[0]);
    before.push(time(() => JSON.stringify(store.listSessions({ limit: 200 })))[0]);
  }
  for (const q of [WORDS[1], `${WORDS[2]} ${WORDS[3]}`, WORDS[4].slice(0, 4)]) {
    const t = performance.now();
    JSON.stringify(await searchSessions(store, q));
    search.push(performance.now() - t);
  }
  console.log(
    `${String(n).padStart(8)}   median ${ms(median(page)).padStart(7)}              ` +
      `median ${ms(median(before)).padStart(7)}       median ${ms(median(search)).padStart(7)}, ` +
      `max ${ms(max(search)).padStart(7)}`,
  );
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
