// `npm start`: builds Sextant and opens it in a real VS Code with the sample workspace.
//   - `code` on PATH: `code --extensionDevelopmentPath=<repo> sample-workspace` (a dev build in dist/).
//   - otherwise: packages the VSIX, installs it into code-server (VS Code's server build, installed by
//     test/e2e/setup into .vscode-test/) with a persistent user-data and extensions dir under
//     .vscode-test/start/, starts it on 127.0.0.1 and prints the URL. Ctrl+C stops it.
// Env: PORT (code-server port; default: a free one), SEXTANT_START_CODE_SERVER=1 (use code-server even
// when `code` exists).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const workspace = join(root, 'sample-workspace');
const NODE_VERSION = '24.9.0';
const CODE_SERVER_VERSION = '4.139.1';
const say = (msg) => console.log(`[start] ${msg}`);
const fail = (msg) => {
  console.error(`[start] ${msg}`);
  process.exit(1);
};

function npmRun(script) {
  say(`npm run ${script}…`);
  const r = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) fail(`npm run ${script} failed (exit ${r.status}). Did 'npm install' finish?`);
}

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

if (!existsSync(join(root, 'node_modules', 'esbuild'))) fail("dependencies are missing: run 'npm install' first.");
if (!existsSync(workspace)) fail(`the sample workspace is missing: ${workspace}`);

// --- VS Code desktop ---------------------------------------------------------------------------------
if (onPath('code') && !process.env.SEXTANT_START_CODE_SERVER) {
  npmRun('build');
  say(`opening VS Code: code --extensionDevelopmentPath=${root} ${workspace}`);
  const r = spawnSync('code', [`--extensionDevelopmentPath=${root}`, workspace], { stdio: 'inherit' });
  if (r.status !== 0) fail(`'code' exited with ${r.status}`);
  say('VS Code is open with Sextant loaded from this folder: click the Sextant icon in the activity bar.');
  say("Configure a model: 'Sextant: Select Model' and 'Sextant: Set API Key' (see README).");
  process.exit(0);
}

// --- code-server -----------------------------------------------------------------------------------
const cache = process.env.SEXTANT_E2E_CACHE ?? join(root, '.vscode-test');
const node = join(cache, `node-v${NODE_VERSION}`, 'bin', 'node');
const csDir = join(cache, `code-server-${CODE_SERVER_VERSION}`);
const codeServer = join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
if (!existsSync(join(csDir, '.sextant-setup-ok')) || !existsSync(node) || !existsSync(codeServer)) {
  // No VS Code desktop here: install VS Code's server build once (pinned; a few minutes on 2 cores).
  say(`no 'code' command on PATH: installing code-server ${CODE_SERVER_VERSION} once with test/e2e/setup`);
  say('(a few minutes, once)…');
  const setup = spawnSync('bash', [join(root, 'test/e2e/setup')], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0)
    fail(
      'test/e2e/setup failed (its message is above). ' +
        'Install VS Code instead, or fix what it names, then run npm start again.',
    );
}

npmRun('package');
const vsix = join(root, 'dist-vsix', 'sextant.vsix');
if (!existsSync(vsix)) fail(`packaging did not produce ${vsix}`);

const state = join(cache, 'start');
const userDataDir = join(state, 'user-data');
const extensionsDir = join(state, 'extensions');
const config = join(state, 'code-server.yaml');
mkdirSync(join(userDataDir, 'User'), { recursive: true });
mkdirSync(extensionsDir, { recursive: true });
const settingsFile = join(userDataDir, 'User', 'settings.json');
if (!existsSync(settingsFile)) {
  // First run only: later the file is the user's own.
  const settings = JSON.stringify(
    {
      'workbench.startupEditor': 'none',
      // VS Code's own chat would open beside ours in the secondary side bar; keep the screen for Sextant.
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.disableAIFeatures': true,
      // sample-workspace/ sits inside this repository: do not prompt to open the parent git repo.
      'git.openRepositoryInParentFolders': 'never',
      'telemetry.telemetryLevel': 'off',
      'extensions.ignoreRecommendations': true,
      'update.mode': 'none',
    },
    null,
    2,
  );
  writeFileSync(settingsFile, `${settings}\n`);
}

const env = { ...process.env };
for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
delete env.PASSWORD;
delete env.HASHED_PASSWORD;
const csArgs = ['--config', config, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir];

say('installing the VSIX into code-server…');
const inst = spawnSync(node, [codeServer, ...csArgs, '--install-extension', vsix, '--force'], {
  env,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'pipe'],
});
if (inst.status !== 0) fail(`installing the VSIX failed:\n${inst.stdout}${inst.stderr}`);

const port = Number(process.env.PORT) || (await freePort());
writeFileSync(config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
const child = spawn(
  node,
  [
    codeServer,
    ...csArgs,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--ignore-last-opened',
    // The sample workspace is ours: trust it, or Restricted Mode would offer only Chat (no Agent tools).
    '--disable-workspace-trust',
    workspace,
  ],
  { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
);
let ready = false;
// code-server's own start-up lines are kept back and shown only if it fails (or with SEXTANT_START_VERBOSE).
let early = '';
const show = (d) => {
  if (process.env.SEXTANT_START_VERBOSE) process.stderr.write(d);
  else if (!ready) early += d;
};
const showEarly = () => {
  if (early) process.stderr.write(early);
  early = '';
};
child.stdout.on('data', show);
child.stderr.on('data', show);
const stop = () => {
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    /* gone */
  }
};
process.on('SIGINT', () => {
  say('stopping code-server…');
  stop();
  process.exit(0);
});
process.on('SIGTERM', () => {
  stop();
  process.exit(0);
});
child.on('exit', (code) => {
  showEarly();
  fail(`code-server exited (${code}).`);
});

const deadline = Date.now() + 60_000;
while (!ready) {
  try {
    ready = (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
  } catch {
    /* not yet */
  }
  if (!ready) {
    if (Date.now() > deadline) {
      showEarly();
      stop();
      fail('code-server did not start within 60 s (its output is above).');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
early = '';
say(`code-server ${CODE_SERVER_VERSION} is running with Sextant installed.`);
console.log(`\n    Open ${url}\n`);
say('Click the Sextant icon in the activity bar. Configure a model with "Sextant: Select Model" and');
say('"Sextant: Set API Key" (or an apiKeyEnv variable exported before npm start; see README).');
say(`Settings and sessions persist in ${state}. Press Ctrl+C to stop.`);
