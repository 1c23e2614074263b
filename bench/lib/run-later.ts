// The run-later watch's cost per boxed command (platform/sandbox/run-later-guard.ts): a workspace with
// 25 run-later files at its top, node_modules/.bin with 400 links, .venv/bin with 60 small scripts and
// a 30 MB program (stat only), and 2,000 ordinary files that are never looked at. Times the note before
// the command and the check after it, nothing changed: the first command (every small file read), then
// the median of the next ones (bytes reused while the stat is unchanged), then one with package.json
// and a .bin link changed. Prints figures; asserts nothing.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BoxPlan } from '../../extension/core/sandbox/types';
import { RunLaterGuard } from '../../extension/platform/sandbox/run-later-guard';

const ROUNDS = Number(process.env.RUN_LATER_ROUNDS ?? 50);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function workspace(): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'run-later-bench-')));
  const top = [
    'package.json',
    'Makefile',
    'pyproject.toml',
    'setup.cfg',
    'tox.ini',
    'conftest.py',
    'eslint.config.mjs',
    '.prettierrc.json',
    'vite.config.ts',
    'vitest.config.ts',
    'jest.config.js',
    'babel.config.js',
    'tsconfig.json',
    'tsconfig.build.json',
    'webpack.config.js',
    'rollup.config.mjs',
    'postcss.config.js',
    'tailwind.config.ts',
    '.eslintrc.cjs',
    'Cargo.toml',
    'build.rs',
    'noxfile.py',
    'setup.py',
    'common.mk',
    'playwright.config.ts',
  ];
  for (const name of top) writeFileSync(join(ws, name), `// ${name}\n${'x'.repeat(2000)}\n`);
  mkdirSync(join(ws, 'src'));
  for (let i = 0; i < 2000; i++) writeFileSync(join(ws, 'src', `f${i}.ts`), 'export {};\n');
  const bin = join(ws, 'node_modules', '.bin');
  mkdirSync(bin, { recursive: true });
  for (let i = 0; i < 400; i++) symlinkSync(`../pkg${i}/bin/cli.js`, join(bin, `tool${i}`));
  const venv = join(ws, '.venv', 'bin');
  mkdirSync(venv, { recursive: true });
  for (let i = 0; i < 60; i++) writeFileSync(join(venv, `script${i}`), `#!/usr/bin/env python\nimport x${i}\n`);
  symlinkSync('/usr/bin/python3', join(venv, 'python'));
  writeFileSync(join(venv, 'ruff'), Buffer.alloc(30 * 1024 * 1024));
  return ws;
}

function plan(ws: string): BoxPlan {
  return {
    writable: [{ path: ws, why: 'workspace' }],
    readOnly: [],
    pinned: [],
    hidden: [],
    git: [],
    hostSockets: [],
    allowedHosts: [],
    cwd: ws,
    sessionTemp: '/tmp',
    home: '/nonexistent',
  };
}

function main(): void {
  const ws = workspace();
  try {
    const guard = new RunLaterGuard();
    const p = plan(ws);
    const once = (): number => {
      const t0 = performance.now();
      guard.watch(p)();
      return performance.now() - t0;
    };
    const first = once();
    const warm: number[] = [];
    for (let i = 0; i < ROUNDS; i++) warm.push(once());
    const check = guard.watch(p);
    writeFileSync(join(ws, 'package.json'), '{"scripts":{"test":"x"}}\n');
    rmSync(join(ws, 'node_modules', '.bin', 'tool7'));
    symlinkSync('../evil/cli.js', join(ws, 'node_modules', '.bin', 'tool7'));
    const t0 = performance.now();
    const changes = check();
    const changed = performance.now() - t0;
    const t1 = performance.now();
    changes?.undo();
    const undo = performance.now() - t1;
    console.log(`run-later watch — ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`);
    console.log('  workspace: 25 run-later files, node_modules/.bin 400 links, .venv/bin 60 scripts + 30 MB binary');
    console.log(`  first command (reads every small file): ${first.toFixed(1)} ms (before + after)`);
    console.log(`  each next command, nothing changed: median ${median(warm).toFixed(2)} ms over ${ROUNDS}`);
    console.log(`  check with 2 files changed: ${changed.toFixed(2)} ms; undo: ${undo.toFixed(2)} ms`);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

main();
