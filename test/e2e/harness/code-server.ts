// Starts and stops code-server (VS Code's server build) for the end-to-end suite and `npm start`.
// It runs with Node 24 from the setup cache in its own process group, so one signal ends it and
// everything it spawned (extension host, file watcher, terminals).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Toolchain } from './paths';

/** Workbench settings that keep a test run quiet: no welcome page, walkthroughs, telemetry, trust prompts. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.editor.enablePreview': false,
  'telemetry.telemetryLevel': 'off',
  'extensions.ignoreRecommendations': true,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'security.workspace.trust.enabled': false,
  'update.mode': 'none',
  'update.showReleaseNotes': false,
  'chat.disableAIFeatures': true,
  'git.enabled': false,
  'git.openRepositoryInParentFolders': 'never',
  'terminal.integrated.enablePersistentSessions': false,
  'window.commandCenter': false,
  // Editors open in tabs, where the scenarios look for them (VS Code may open some in a modal overlay).
  'workbench.editor.useModal': 'off',
};

export interface CodeServerDirs {
  userDataDir: string;
  extensionsDir: string;
}

export function writeUserSettings(dirs: CodeServerDirs, settings: Record<string, unknown>): string {
  const file = join(dirs.userDataDir, 'User', 'settings.json');
  mkdirSync(join(dirs.userDataDir, 'User'), { recursive: true });
  writeFileSync(file, JSON.stringify(settings, null, 2));
  return file;
}

/** A free TCP port on 127.0.0.1 (asked from the OS, then released for code-server to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} timed out after ${timeoutMs / 1000}s:\n${out}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`code-server ${args.join(' ')} exited with ${code}:\n${out}`));
    });
  });
}

function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  // code-server would read these as its own password/auth settings.
  delete env.PASSWORD;
  delete env.HASHED_PASSWORD;
  // Inherited from `npm run`, they would point npm-aware code at the wrong Node / prefix.
  for (const k of Object.keys(env)) if (k.startsWith('npm_')) delete env[k];
  return env;
}

/** `code-server --install-extension <vsix>` into the given dirs. */
export async function installExtension(tc: Toolchain, dirs: CodeServerDirs, vsix: string): Promise<string> {
  return run(
    tc.node,
    [
      tc.codeServer,
      '--user-data-dir',
      dirs.userDataDir,
      '--extensions-dir',
      dirs.extensionsDir,
      '--install-extension',
      vsix,
      '--force',
    ],
    baseEnv(),
    120_000,
  );
}

export interface CodeServerOptions extends CodeServerDirs {
  /** Folder to open. */
  folder: string;
  port?: number;
  /** Extra environment for the server and so the extension host (e.g. an API key variable). */
  env?: NodeJS.ProcessEnv;
  /** Where stdout/stderr go. */
  logFile: string;
  /** Its own config.yaml, so nothing is written to ~/.config/code-server. */
  configFile: string;
  startTimeoutMs?: number;
}

export interface CodeServer {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** URL that opens `folder` in the workbench. */
  readonly folderUrl: string;
  stop(): Promise<void>;
}

/** Starts code-server and resolves once it answers `/healthz`. */
export async function startCodeServer(tc: Toolchain, opts: CodeServerOptions): Promise<CodeServer> {
  const port = opts.port ?? (await freePort());
  writeFileSync(opts.configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const args = [
    tc.codeServer,
    '--config',
    opts.configFile,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    opts.userDataDir,
    '--extensions-dir',
    opts.extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    opts.folder,
  ];
  const child: ChildProcess = spawn(tc.node, args, {
    env: baseEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: stop() signals the whole tree
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const url = `http://127.0.0.1:${port}`;
  const server: CodeServer = {
    url,
    port,
    pid: child.pid ?? -1,
    folderUrl: `${url}/?folder=${encodeURIComponent(opts.folder)}`,
    stop: () => stopGroup(child),
  };
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`code-server exited with ${exited} while starting; see ${opts.logFile}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) return server;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(
        `code-server did not answer ${url}/healthz within ${(opts.startTimeoutMs ?? 60_000) / 1000}s; see ` +
          `${opts.logFile}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  return new Promise((resolve) => {
    const kill = (sig: NodeJS.Signals): void => {
      try {
        process.kill(-pid, sig);
      } catch {
        /* already gone */
      }
    };
    const hard = setTimeout(() => kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(hard);
      kill('SIGKILL'); // stragglers in the group (extension host children)
      resolve();
    });
    kill('SIGTERM');
  });
}
