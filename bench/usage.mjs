// Usage view benchmark (prints figures, asserts nothing): the host's work for one report — the store's
// scan of `usage_entries` and the roll-up into every dimension — on a generated history of 1,000
// and 10,000 sessions (test/fixtures/usage-history.ts), for each range preset. Median and max of 9 runs.
// The figure the issue asks for: ≤ 200 ms at 10,000 sessions.
// Usage: node bench/usage.mjs [--sizes 1000,10000] [--runs 9]
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../scripts/bundle-node.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const SIZES = arg('sizes', '1000,10000').split(',').map(Number);
const RUNS = Number(arg('runs', '9'));

const outfile = join(root, 'dist-bench', 'usage-bench.cjs');
await bundleForNode({ entry: join(root, 'bench/lib/usage.ts'), outfile });
const { setUp } = createRequire(import.meta.url)(outfile);

const ms = (x) => `${x.toFixed(1)} ms`;
console.log('\n## Usage report (one scan of usage_entries + roll-up in JS; sql.js in this process)');
console.log('sessions   entries   range   day×key cells   sessions   median     max');
for (const n of SIZES) {
  const bench = await setUp(join(root, 'node_modules/sql.js/dist/sql-wasm.wasm'), n);
  for (const preset of ['today', '7d', '30d', 'all']) {
    const times = [];
    let last = { cells: 0, sessions: 0 };
    for (let i = 0; i < RUNS; i++) {
      const r = bench.report(preset);
      times.push(r.ms);
      last = r;
    }
    times.sort((a, b) => a - b);
    console.log(
      `${String(n).padStart(8)}   ${String(bench.entries).padStart(7)}   ${preset.padEnd(5)}   ` +
        `${String(last.cells).padStart(13)}   ${String(last.sessions).padStart(8)}   ` +
        `${ms(times[Math.floor(times.length / 2)]).padStart(8)}   ${ms(times[times.length - 1]).padStart(8)}`,
    );
  }
  const csv = bench.csv();
  console.log(`${String(n).padStart(8)}   CSV of all time: ${ms(csv.ms)}, ${(csv.bytes / 1024).toFixed(0)} KB`);
  bench.close();
}
