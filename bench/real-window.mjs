// Packages the VSIX (unless --no-package), bundles bench/lib/real-window.ts and runs it with node --test
// against code-server + headless Chromium (the e2e harness; `test/e2e/setup` installs code-server).
// Prints first use (keydown → request on the wire) and the time per step at the start and end of a
// long Agent run in the real window. Asserts nothing. Usage: node bench/real-window.mjs [--no-package]
// Env: REAL_WINDOW_STEPS (default 150), REAL_WINDOW_WARMUP_STEPS (30), REAL_WINDOW_FIRST_USE_TRIES (5),
// REAL_WINDOW_HIDE=1 (the long run with the view hidden).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForNode } from '../scripts/bundle-node.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

const cache = process.env.SEXTANT_E2E_CACHE ?? join(root, '.vscode-test');
if (!existsSync(join(cache, 'code-server-4.139.1', '.sextant-setup-ok'))) {
  const setup = spawnSync('bash', [join(root, 'test/e2e/setup')], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0) process.exit(1);
}
if (!process.argv.includes('--no-package')) {
  const r = spawnSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const out = join(root, 'dist-test', `bench-real-window-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/real-window.ts'), outfile: out });
const runDir = mkdtempSync(join(tmpdir(), 'sextant-bench-window-'));
const r = spawnSync(process.execPath, ['--test', '--test-reporter=spec', out], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SEXTANT_TEST: '1', SEXTANT_E2E_RUN_DIR: runDir },
});
// Whatever happened, end every process of this run (code-server, its extension host, Chromium).
for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
  try {
    if (Number(pid) !== process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(runDir))
      process.kill(Number(pid), 'SIGKILL');
  } catch {
    /* gone, or not ours */
  }
}
rmSync(runDir, { recursive: true, force: true });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
