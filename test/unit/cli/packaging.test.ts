// The command as it ships: the files the Containerfile copies and the npm tarball are each enough to
// run `sextant -p` against the fake model (no node_modules, no repository beside them), and the image's
// default command is run exactly as the image would (its ENTRYPOINT + CMD, SEXTANT_HOME, WORKDIR).
// Building and running the image itself needs podman, a Debian root file system from mmdebstrap and
// minutes (scripts/container-image.sh; here podman runs it only with runc and lowered limits), so that
// part is a script, not a unit test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { repoFile } from '../../fixtures/node-ports';
import { cliFile, collectRun, FAKE_KEY, makeCliHome, spawnCli } from './cli-harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(async () => {
  await fake.close();
});

interface ImageSpec {
  entrypoint: string[];
  cmd: string[];
  env: Record<string, string>;
  workdir: string;
  /** The dist/ files COPY puts in the image. */
  copied: string[];
}

function readContainerfile(): ImageSpec {
  const text = readFileSync(repoFile('Containerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const lines = text.split('\n').filter((l) => !l.trimStart().startsWith('#'));
  const instr = (name: string) =>
    lines.filter((l) => l.startsWith(`${name} `)).map((l) => l.slice(name.length + 1).trim());
  const env: Record<string, string> = {};
  for (const e of instr('ENV')) {
    const [k, v] = e.split('=');
    if (k && v) env[k] = v;
  }
  const copy = instr('COPY')[0]?.split(/\s+/) ?? [];
  return {
    entrypoint: JSON.parse(instr('ENTRYPOINT')[0] ?? '[]') as string[],
    cmd: JSON.parse(instr('CMD')[0] ?? '[]') as string[],
    env,
    workdir: instr('WORKDIR')[0] ?? '/',
    // The sources: COPY's flags (--chmod) and its destination left out.
    copied: copy.slice(0, -1).filter((a) => !a.startsWith('--')),
  };
}

/** Runs a copy of the command with only PATH, HOME and `env`: nothing of this repository's environment. */
function run(file: string, args: string[], env: Record<string, string>, cwd: string) {
  return collectRun(
    spawnCli({ file, args, cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } }),
  );
}

test("the image's files alone run its default command and a -p request, laid out as in the image", async () => {
  cliFile();
  const spec = readContainerfile();
  assert.deepEqual(spec.entrypoint, ['sextant'], 'the default command is the CLI');
  assert.ok(spec.copied.includes('dist/cli.js'));
  // /opt/sextant/dist, $SEXTANT_HOME and /workspace, each under a temporary root with a space.
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'image root ')));
  const dist = path.join(root, 'opt/sextant/dist');
  mkdirSync(dist, { recursive: true });
  for (const f of spec.copied) copyFileSync(repoFile(f), path.join(dist, path.basename(f)));
  const h = makeCliHome(fake);
  const home = path.join(root, spec.env.SEXTANT_HOME ?? '/home/sextant/.sextant');
  mkdirSync(home, { recursive: true });
  copyFileSync(path.join(h.home, 'settings.json'), path.join(home, 'settings.json'));
  const workdir = path.join(root, spec.workdir);
  mkdirSync(workdir, { recursive: true });
  const env = { SEXTANT_HOME: home, FAKE_CLI_KEY: FAKE_KEY };

  const byDefault = await run(path.join(dist, 'cli.js'), spec.cmd, env, workdir);
  assert.equal(byDefault.code, 0, byDefault.stderr);
  assert.match(byDefault.stdout, /Usage: sextant/);

  fake.reset();
  fake.enqueue({ text: 'Reviewed in the image.' });
  const r = await run(path.join(dist, 'cli.js'), ['-p', 'review', '--sandbox', 'off'], env, workdir);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Reviewed in the image.\n');
});

test('the npm tarball (npm pack) holds a runnable sextant: extracted alone, -p answers', async () => {
  cliFile();
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'npm pack ')));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
    cwd: repoFile('.'),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = (info?.files ?? []).map((f) => f.path);
  assert.ok(files.includes('dist/cli.js'));
  for (const vscodeOnly of ['dist/extension.js', 'dist/runtime.js', 'dist/webview.js'])
    assert.ok(!files.includes(vscodeOnly), `${vscodeOnly} is not in the npm package`);
  const manifest = JSON.parse(readFileSync(repoFile('package.json'), 'utf8')) as { bin?: Record<string, string> };
  assert.equal(manifest.bin?.sextant, 'dist/cli.js');
  execFileSync('tar', ['xzf', path.join(dir, info?.filename ?? ''), '-C', dir]);
  assert.ok(readdirSync(path.join(dir, 'package', 'dist')).includes('cli.js'));

  fake.reset();
  fake.enqueue({ text: 'From the tarball.' });
  const h = makeCliHome(fake);
  const r = await run(
    path.join(dir, 'package', 'dist', 'cli.js'),
    ['-p', 'hi'],
    { SEXTANT_HOME: h.home, FAKE_CLI_KEY: FAKE_KEY },
    h.workspace,
  );
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'From the tarball.\n');
});
