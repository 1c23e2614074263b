// `npm run test:e2e`: packages the VSIX, bundles the scenarios (test/e2e/suite.test.ts) and runs them
// with node --test against code-server + headless Chromium. Bounded in time; whatever the outcome,
// every process started under this run's temp folder (code-server, extension host, Chromium) is ended.
//
// Usage: node test/e2e/run.mjs [name-pattern] [--no-package] [--keep]
//   name-pattern  only scenarios whose name matches (regex; node --test-name-pattern)
//   --no-package  reuse dist-vsix/sextant.vsix
//   --keep        keep the run's temp folder (workspace copy, user-data-dir, logs)
// Env: SEXTANT_E2E_TIMEOUT_MS (whole run, default 1500000),
//      SEXTANT_E2E_DOCS_SCREENSHOT=1 (refresh docs/screenshot-chat.png)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTests, root } from '../build-tests.mjs';

const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const pattern = args.find((a) => !a.startsWith('--'));
const totalTimeoutMs = Number(process.env.SEXTANT_E2E_TIMEOUT_MS ?? 1_500_000);
const t0 = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
const say = (msg) => console.log(`[test:e2e] ${msg}`);

// Same check as harness/paths.ts, early: a fresh machine gets the setup run for it.
const cache = process.env.SEXTANT_E2E_CACHE ?? join(root, '.vscode-test');
if (!existsSync(join(cache, 'code-server-4.139.1', '.sextant-setup-ok'))) {
  // First run on this machine: install the pinned Node 24 + code-server (a few minutes, once).
  say('code-server is not installed yet: running test/e2e/setup (once; a few minutes)…');
  const setup = await run('bash', [join(root, 'test/e2e/setup')]);
  if (setup !== 0) {
    console.error('[test:e2e] test/e2e/setup failed (its message is above).');
    process.exit(1);
  }
}

function run(cmd, argv, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...opts });
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          console.error(`[test:e2e] ${cmd} ${argv.join(' ')} exceeded ${secs(opts.timeoutMs)}; stopping it`);
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }, opts.timeoutMs)
      : undefined;
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Ends every process whose command line mentions `marker` (this run's private temp folder). */
function killByMarker(marker) {
  let killed = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    if (Number(pid) === process.pid) continue;
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (!cmdline.includes(marker)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed++;
    } catch {
      /* gone */
    }
  }
  return killed;
}

if (!flags.has('--no-package')) {
  const t = Date.now();
  say('packaging the extension (npm run package)…');
  const code = await run('npm', ['run', '--silent', 'package'], { timeoutMs: 300_000 });
  if (code !== 0) {
    console.error('[test:e2e] npm run package failed');
    process.exit(code);
  }
  say(`packaged dist-vsix/sextant.vsix in ${secs(Date.now() - t)}`);
}

const files = await buildTests(['test/e2e'], 'e2e');
const runDir = mkdtempSync(join(tmpdir(), 'sextant-e2e-'));
const cleanup = () => {
  const n = killByMarker(runDir);
  if (n) say(`ended ${n} leftover process(es) of this run`);
  if (!flags.has('--keep')) rmSync(runDir, { recursive: true, force: true });
  else say(`kept ${runDir}`);
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});
process.on('SIGTERM', () => {
  cleanup();
  process.exit(143);
});

const testArgs = ['--test', '--test-reporter=spec', '--test-concurrency=1'];
if (pattern) testArgs.push(`--test-name-pattern=${pattern}`);
const remaining = Math.max(60_000, totalTimeoutMs - (Date.now() - t0));
const code = await run(process.execPath, [...testArgs, ...files], {
  timeoutMs: remaining,
  env: {
    ...process.env,
    SEXTANT_TEST: '1',
    SEXTANT_E2E_RUN_DIR: runDir,
    ...(flags.has('--keep') ? { SEXTANT_E2E_KEEP: '1' } : {}),
  },
});
cleanup();
say(
  `${code === 0 ? 'passed' : 'FAILED'} in ${secs(Date.now() - t0)} (results, logs and screenshots: test-results/e2e/)`,
);
process.exit(code);
