// Which repositories inside the workspace a box guards: the first launch walks the workspace; after
// that each release's walk (which runs anyway, new-repositories.ts) is what the next launch uses. The
// launches are planned and released for real, without running a command (the box itself is
// tested through bwrap in bwrap.integration.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { CLOCK_SLACK_MS } from '../../../extension/platform/sandbox/new-repositories';

function repository(at: string): void {
  mkdirSync(path.join(at, '.git', 'objects'), { recursive: true });
  writeFileSync(path.join(at, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(at, '.git', 'config'), '[core]\n');
}

/** Waits until `git` counts as made before a launch (past the slack for the kernel's coarse file times). */
async function olderThanALaunch(git: string): Promise<void> {
  const born = statSync(git).birthtimeMs || Date.now();
  while (Date.now() <= born + CLOCK_SLACK_MS + 1) await new Promise((r) => setTimeout(r, 1));
}

test('nested repositories: walked on the first launch, then as each release found them', async () => {
  const base = path.join(process.cwd(), 'test-results', `nested-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const ws = path.join(base, 'work space');
  mkdirSync(path.join(ws, 'node_modules', 'dep'), { recursive: true });
  repository(ws);
  repository(path.join(ws, 'vendor', 'lib'));
  // A dependency's own checkout: not walked (git on the host finds it only from inside node_modules).
  repository(path.join(ws, 'node_modules', 'dep'));
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots: [] }),
    workspaceFolders: () => [realpathSync(ws)],
    home: path.join(base, 'home'),
    stateRoot: path.join(base, 'state'),
    nsenter: false,
    detect: () => ({ ok: true, backend: 'bubblewrap', bwrap: '/usr/bin/bwrap' }),
  });
  const real = realpathSync(ws);
  const guarded = async (callId: string) => {
    const l = await sandbox.launch({ command: 'true', cwd: real, env: {}, sessionId: 's', callId });
    const paths = l.plan.git.map((g) => path.relative(real, g.path)).sort();
    return { paths, release: l.release };
  };
  try {
    await olderThanALaunch(path.join(ws, 'vendor', 'lib', '.git'));
    const first = await guarded('1');
    assert.deepEqual(first.paths, ['.git', 'vendor/lib/.git']);
    first.release();
    // Made on the host between two commands: the next box does not know it yet (the README says so);
    // that box's release walk finds it, so every box after guards it.
    repository(path.join(ws, 'sub'));
    await olderThanALaunch(path.join(ws, 'sub', '.git'));
    const second = await guarded('2');
    assert.deepEqual(second.paths, ['.git', 'vendor/lib/.git']);
    second.release();
    const third = await guarded('3');
    assert.deepEqual(third.paths, ['.git', 'sub/.git', 'vendor/lib/.git']);
    third.release();
    // Gone: a launch skips it (no .git there any more), and the next release's walk drops it.
    rmSync(path.join(ws, 'vendor'), { recursive: true });
    const fourth = await guarded('4');
    assert.deepEqual(fourth.paths, ['.git', 'sub/.git']);
    fourth.release();
  } finally {
    sandbox.dispose();
    rmSync(base, { recursive: true, force: true });
  }
});
