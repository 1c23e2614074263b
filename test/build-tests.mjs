// Shared by the test runners: bundle TypeScript test files with esbuild (packages stay external and
// resolve from node_modules at run time) and run them with `node --test`.
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { readdirSync, statSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = dirname(dirname(fileURLToPath(import.meta.url)));

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/** Builds the tests under `dirs` into dist-test/<label>/ and returns the output files. */
export async function buildTests(dirs, label, filter) {
  const entries = dirs.flatMap((d) => walk(join(root, d))).filter((f) => !filter || f.includes(filter));
  // A folder per run: two runs at once (two engineers, or a watch loop) never delete each other's files.
  const outdir = join(root, 'dist-test', `${label}-${process.pid}`);
  rmSync(outdir, { recursive: true, force: true });
  process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
  const entryPoints = Object.fromEntries(entries.map((f) => [relative(root, f).replace(/\.ts$/, ''), f]));
  await bundleForNode({ entryPoints, outdir, sourcemap: 'inline', outExtension: { '.js': '.cjs' } });
  return Object.keys(entryPoints).map((k) => join(outdir, `${k}.cjs`));
}

/** Runs files with node --test; resolves to the exit code. */
export function runNodeTests(files, extraArgs = []) {
  if (files.length === 0) {
    console.error('no test files matched');
    return Promise.resolve(1);
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', ...extraArgs, ...files], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SEXTANT_TEST: '1' },
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}
