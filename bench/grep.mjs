// grep benchmark: the grep tool (ripgrep + parsing + formatting, and the JS fallback)
// against raw `rg` with the same flags, on a generated tree of 50,000 files, in the same run.
// Prints wall times (median of N runs after a warm-up) and ratios; asserts nothing.
// Usage: node bench/grep.mjs [--files 50000] [--runs 5] [--no-fallback]
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : def;
};
const FILES = Number(arg('files', '50000'));
const RUNS = Number(arg('runs', '7'));
const FALLBACK = !process.argv.includes('--no-fallback');

let rg;
try {
  rg = execFileSync('which', ['rg']).toString().trim();
} catch {
  console.log('rg is not installed (apt-get install ripgrep); nothing to compare against.');
  process.exit(0);
}

const outfile = join(root, 'dist-bench', 'grep-bench.cjs');
await bundleForNode({ entry: join(root, 'bench/lib/tool-ports.ts'), outfile });
const require = createRequire(import.meta.url);
const { benchPorts, benchContext, grepTool, ripgrepArgs } = require(outfile);

// --- the tree: 50 × 20 folders × N files of plausible source, a .gitignore and an ignored folder.
const dir = mkdtempSync(join(tmpdir(), 'sextant-grep-bench-'));
const t0 = performance.now();
const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'render',
  'parse',
  'value',
  'index',
  'result',
  'config',
  'handler',
  'buffer',
];
const perDir = Math.ceil(FILES / 1000);
let made = 0;
writeFileSync(join(dir, '.gitignore'), 'generated/\n*.tmp\n');
for (let a = 0; a < 50 && made < FILES; a++) {
  for (let b = 0; b < 20 && made < FILES; b++) {
    const d = join(dir, `pkg${a}`, `mod${b}`);
    mkdirSync(d, { recursive: true });
    for (let c = 0; c < perDir && made < FILES; c++, made++) {
      const n = made;
      const lines = [];
      for (let l = 0; l < 40; l++) {
        const w = WORDS[(n * 7 + l * 3) % WORDS.length];
        lines.push(
          `export function ${w}${l}_${n}(input: number): number {`,
          `  return input * ${l} + ${n % 97}; // ${w} ${l}`,
          '}',
        );
      }
      if (n % 1000 === 0) lines.push('// FIXME: rare marker for the benchmark');
      if (n % 50 === 0) lines.push('const needle = "Needle in a HAYSTACK";');
      const ext = c % 3 === 0 ? 'py' : 'ts';
      writeFileSync(join(d, `file${c}.${ext}`), `${lines.join('\n')}\n`);
    }
  }
}
mkdirSync(join(dir, 'generated'), { recursive: true });
for (let i = 0; i < 100; i++) writeFileSync(join(dir, 'generated', `g${i}.ts`), '// FIXME generated\n');
const genMs = performance.now() - t0;

const CASES = [
  { name: 'rare literal, files', args: { pattern: 'FIXME' } },
  { name: 'rare literal, content', args: { pattern: 'FIXME', output_mode: 'content' } },
  { name: 'regex -i, content (1k files)', args: { pattern: 'needle in a \\w+', '-i': true, output_mode: 'content' } },
  { name: 'type py, count', args: { pattern: 'return input', type: 'py', output_mode: 'count' } },
  { name: 'common word, files (all)', args: { pattern: 'export function' } },
  {
    name: 'content, head_limit 100',
    args: { pattern: 'delta\\d+_1\\d\\d\\b', output_mode: 'content', head_limit: 100 },
  },
];

function rawRg(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (b) => (bytes += b.length));
    child.on('error', reject);
    child.on('close', () => resolve(bytes));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Runs the functions interleaved (a, b, a, b, …) after a warm-up, so cache and load drift hit both alike. */
async function timeInterleaved(fns, runs) {
  for (const fn of fns) await fn();
  const ts = fns.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [k, fn] of fns.entries()) {
      const s = performance.now();
      await fn();
      ts[k].push(performance.now() - s);
    }
  }
  return ts.map(median);
}

const withRg = benchContext(benchPorts(dir, rg));
const withoutRg = benchContext(benchPorts(dir, undefined));
console.log(
  `# grep: ${made} files (+100 ignored) generated in ${(genMs / 1000).toFixed(1)} s; ${rg} ` +
    `(${execFileSync(rg, ['--version']).toString().split('\n')[0]}); median of ${RUNS} runs`,
);
console.log('| search | raw rg | grep tool | tool / rg | JS fallback | fallback / rg |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const c of CASES) {
  const mode = c.args.output_mode ?? 'files_with_matches';
  const ctxLines = c.args['-C'] ?? 0;
  const { cwd, args } = ripgrepArgs({
    pattern: c.args.pattern,
    target: dir,
    targetIsFile: false,
    workspaceRoot: dir,
    glob: c.args.glob,
    type: c.args.type,
    caseInsensitive: Boolean(c.args['-i']),
    multiline: Boolean(c.args.multiline),
    mode,
    before: ctxLines,
    after: ctxLines,
    excludeGlobs: ['**/node_modules'],
  });
  const [rgMs, toolMs] = await timeInterleaved(
    [
      () => rawRg(args, cwd),
      async () => {
        const r = await grepTool.execute(c.args, withRg);
        if (r.isError) throw new Error(String(r.forModel));
      },
    ],
    RUNS,
  );
  let fb = '—';
  let fbRatio = '—';
  if (FALLBACK) {
    const [fbMs] = await timeInterleaved([() => grepTool.execute(c.args, withoutRg)], 1);
    fb = `${fbMs.toFixed(0)} ms`;
    fbRatio = `${(fbMs / rgMs).toFixed(1)}×`;
  }
  console.log(
    `| ${c.name} | ${rgMs.toFixed(0)} ms | ${toolMs.toFixed(0)} ms | ${(toolMs / rgMs).toFixed(2)}× | ${fb} | ` +
      `${fbRatio} |`,
  );
}
rmSync(dir, { recursive: true, force: true });
