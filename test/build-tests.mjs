// Shared by the test runners: bundle TypeScript test files with esbuild (packages stay external and
// resolve from node_modules at run time) and run them with `node --test`.
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
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
  // The filter matches the path inside the repository: a clone under a folder named like a filter
  // (`…/plugins/` for `plugins/`) must not match every test.
  const entries = dirs
    .flatMap((d) => walk(join(root, d)))
    .filter((f) => !filter || relative(root, f).split(sep).join('/').includes(filter));
  // A folder per run: two runs at once (two engineers, or a watch loop) never delete each other's files.
  const outdir = join(root, 'dist-test', `${label}-${process.pid}`);
  rmSync(outdir, { recursive: true, force: true });
  process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
  const entryPoints = Object.fromEntries(entries.map((f) => [relative(root, f).replace(/\.ts$/, ''), f]));
  await bundleForNode({ entryPoints, outdir, sourcemap: 'inline', outExtension: { '.js': '.cjs' } });
  return Object.keys(entryPoints).map((k) => join(outdir, `${k}.cjs`));
}

/**
 * Runs files with node --test; resolves to the exit code. The output passes through as it comes; at
 * the end one line sums it up and names every skipped test with its reason (a skip — say the shared
 * test corpora are absent — must not hide in the middle of the log).
 */
export function runNodeTests(files, extraArgs = [], label = 'tests') {
  if (files.length === 0) {
    console.error('no test files matched');
    return Promise.resolve(1);
  }
  // Every temporary folder the tests make (os.tmpdir() follows TMPDIR) lands in one folder per run,
  // removed when the run ends: a test that forgets its own clean-up leaves nothing behind in /tmp.
  const runTmp = mkdtempSync(join(tmpdir(), `sextant-${label}-`));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', ...extraArgs, ...files], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SEXTANT_TEST: '1', TMPDIR: runTmp },
    });
    const counts = {};
    const skipped = new Set();
    let partial = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const count = /^ℹ (tests|pass|fail|skipped|cancelled|todo) (\d+)$/.exec(line);
        if (count) counts[count[1]] = Number(count[2]);
        const skip = /^\s*﹣ (.*) \([\d.]+ms\) # (.*)$/.exec(line);
        if (skip) skipped.add(`${skip[1].trim()} (${skip[2].trim()})`);
      }
    });
    child.on('exit', (code) => {
      removeRunTmp(runTmp);
      const n = (k) => counts[k] ?? 0;
      const skips = skipped.size ? ` — skipped: ${[...skipped].join('; ')}` : '';
      console.log(
        `[${label}] ${n('tests')} tests: ${n('pass')} passed, ${n('fail')} failed, ${n('skipped')} skipped` +
          `${n('cancelled') ? `, ${n('cancelled')} cancelled` : ''}${skips}`,
      );
      resolve(code ?? 1);
    });
  });
}

/** Removes a run's temporary folder; a test may have left read-only files (checkpoint blobs, boxes). */
function removeRunTmp(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    spawnSync('chmod', ['-R', 'u+rwx', dir]);
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      console.error(`could not remove the run's temporary folder ${dir}: ${err.message}`);
    }
  }
}
