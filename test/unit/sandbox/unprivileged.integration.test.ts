// The box as users run it: not as root. As root, bubblewrap makes no user namespace, and nsenter joins
// a chat's network holder without one — so a CI machine (root) would never run the path every real
// user takes (an unprivileged user namespace, a nested one for /dev, nsenter --user
// --preserve-credentials, read-only files that root could write anyway). When this suite runs as root,
// this test runs the two box integration files again as an unprivileged user (`nobody`, via setpriv)
// and requires every test in them to pass, none skipped. Not root: those files already run that path
// themselves, and this one says so and skips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { bundleForNode } from '../../../scripts/bundle-node.mjs';
import { detectBackend } from '../../../extension/platform/sandbox/detect';

const UID = 65534; // nobody / nogroup on Debian, Ubuntu, Fedora
const root = process.cwd();
const FILES = ['bwrap.integration.test.ts', 'holder.integration.test.ts', 'host-sockets.integration.test.ts'];
/** The compiled test runs from dist-test; the files it runs again are bundled from their sources. */
const SOURCES = path.join(root, 'test', 'unit', 'sandbox');

function whySkip(): string | false {
  if (process.getuid?.() !== 0) return 'not root: the box integration tests already run unprivileged here';
  const d = detectBackend();
  if (!d.ok || d.backend !== 'bubblewrap') return `no bubblewrap box here: ${d.ok ? d.backend : d.reason}`;
  if (!existsSync('/usr/bin/setpriv')) return 'setpriv (util-linux) is missing: cannot drop to an unprivileged user';
  const probe = spawnSync(
    '/usr/bin/setpriv',
    [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', 'test', '-r', path.join(root, 'node_modules', 'zod')],
    { timeout: 10_000 },
  );
  if (probe.status !== 0) return `an unprivileged user cannot read this checkout (${root}): move it out of /root`;
  return false;
}

const skip = whySkip();
if (skip) console.log(`# unprivileged box integration skipped: ${skip}`);

test('the box integration tests pass as an unprivileged user (user namespaces, nested /dev, nsenter --user)', {
  skip,
  timeout: 300_000,
}, async () => {
  // Bundles beside the checkout's node_modules (packages stay external); a scratch folder the user owns
  // outside /tmp (the box has a /tmp of its own, so the tests' "outside" folders live under their cwd).
  const out = path.join(root, 'dist-test', `unprivileged-${process.pid}`);
  const scratch = path.join(root, 'test-results', `unprivileged-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  chownSync(scratch, UID, UID);
  try {
    const entryPoints = Object.fromEntries(FILES.map((f) => [f.replace(/\.ts$/, ''), path.join(SOURCES, f)]));
    await bundleForNode({ entryPoints, outdir: out, outExtension: { '.js': '.cjs' } });
    const files = FILES.map((f) => path.join(out, f.replace(/\.ts$/, '.cjs')));
    const { code, output } = await runAs(files, scratch);
    const count = (k: string) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(output)?.[1] ?? -1);
    assert.equal(code, 0, `the box tests failed as uid ${UID}:\n${output.slice(-4000)}`);
    assert.equal(count('fail'), 0);
    assert.equal(count('skipped'), 0, `a box test was skipped as uid ${UID}:\n${output.slice(-2000)}`);
    assert.ok(count('pass') >= 10, `too few box tests ran as uid ${UID}: ${count('pass')}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
});

function runAs(files: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      '/usr/bin/setpriv',
      [
        `--reuid=${UID}`,
        `--regid=${UID}`,
        '--clear-groups',
        process.execPath,
        '--test',
        '--test-reporter=tap',
        // One file after the other: this run is already the suite's heaviest on two cores.
        '--test-concurrency=1',
        ...files,
      ],
      {
        cwd,
        // A HOME and TMPDIR the user owns; nothing else of this process's environment.
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, TMPDIR: cwd, LANG: 'C' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}
