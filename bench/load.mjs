// Bundle sizes and the cost of loading + activating the extension (prints figures, asserts nothing).
// Usage: node bench/load.mjs   (expects a production build in dist/ and optionally dist-vsix/sextant.vsix)
import { existsSync, statSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

export function sizes() {
  const rows = [];
  for (const f of readdirSync(join(root, 'dist'))
    .filter((f) => /\.(js|css|wasm)$/.test(f))
    .sort()) {
    rows.push([`dist/${f}`, statSync(join(root, 'dist', f)).size]);
  }
  const vsix = join(root, 'dist-vsix/sextant.vsix');
  if (existsSync(vsix)) rows.push(['dist-vsix/sextant.vsix', statSync(vsix).size]);
  return rows;
}

/** Runs in a fresh Node process so nothing is cached: require(dist/extension.js) then activate() against a stub API. */
const probe = `
const Module = require('node:module');
const calls = [];
const disposable = { dispose() {} };
class EventEmitter { event = () => disposable; fire() {} dispose() {} }
const stub = {
  EventEmitter,
  window: {
    createOutputChannel: () => ({ info: (m) => calls.push(m), warn() {}, error() {}, dispose() {} }),
    registerWebviewViewProvider: () => disposable,
    registerWebviewPanelSerializer: () => disposable,
    registerUriHandler: () => disposable,
    createTreeView: () => disposable,
  },
  commands: { registerCommand: () => disposable, executeCommand: () => Promise.resolve() },
};
const orig = Module._resolveFilename;
Module._resolveFilename = function (req, ...rest) {
  return req === 'vscode' ? 'vscode' : orig.call(this, req, ...rest);
};
require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: stub };
const t0 = performance.now();
const ext = require(process.argv[1]);
const t1 = performance.now();
const memento = { get: () => true, update: () => Promise.resolve(), keys: () => [] };
const secrets = {
  get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: () => disposable,
};
const context = { subscriptions: [], extensionUri: {}, globalStorageUri: {} };
const states = { globalState: memento, workspaceState: memento };
ext.activate({ ...context, ...states, secrets });
const t2 = performance.now();
const HEAVY =
  /openai|anthropic|sql-wasm|sql\\.js|runtime\\.js|provider-|research-html|linkedom|readability|turndown|opentelemetry/;
const heavy = Object.keys(require.cache).filter((k) => HEAVY.test(k));
console.log(JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, heavy, log: calls }));
`;

export function loadTimes(runs = 15) {
  const file = join(root, 'dist/extension.js');
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['-e', probe, file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    samples.push(JSON.parse(r.stdout.trim().split('\n').pop()));
  }
  return samples;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs) => Math.max(...xs);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log('\n## Bundle sizes');
  for (const [name, size] of sizes()) console.log(`${name.padEnd(32)} ${kb(size).padStart(10)}`);
  const samples = loadTimes();
  console.log('\n## Loading dist/extension.js (fresh Node process each run, n=%d)', samples.length);
  const row = (label, values) =>
    `${label.padEnd(12)} median ${median(values).toFixed(2)} ms   max ${max(values).toFixed(2)} ms`;
  console.log(
    row(
      'require',
      samples.map((s) => s.requireMs),
    ),
  );
  console.log(
    row(
      'activate()',
      samples.map((s) => s.activateMs),
    ),
  );
  const heavy = samples[0].heavy.length ? samples[0].heavy.join(', ') : 'none (no SDK, sql.js, runtime or prompt work)';
  console.log(`heavy modules loaded at activation: ${heavy}`);
  void createRequire;
}
