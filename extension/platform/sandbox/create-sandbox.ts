// The sandbox port's implementation for this machine: detects a backend once, and for each command
// plans the box (core/sandbox/box-plan.ts), starts that box's proxy on a socket of its own (so every
// connection is attributed to its command in the audit log), and returns the launch — bwrap's
// command line on Linux, sandbox-exec with a generated profile on macOS. Node only; never 'vscode'.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isUnder, normalizePath } from '../../core/permissions/paths';
import { type GitFolder, planBox } from '../../core/sandbox/box-plan';
import { hostSocketFolders, withoutHostIpc } from '../../core/sandbox/host-sockets';
import type { RunLaterChanges } from '../../core/sandbox/run-later';
import type {
  BoxConnection,
  BoxPlan,
  BoxedLaunch,
  BoxRefusal,
  LaunchRequest,
  SandboxMode,
  SandboxPort,
  SandboxStatus,
} from '../../core/sandbox/types';
import { BOX_BASE_ARGS_SHARED_NET, boxScript, bwrapArgs, proxyEnv } from './bwrap-args';
import { makeBoxFolder, PROXY_SOCKET } from './box-folder';
import { detectBackend, type Detected } from './detect';
import { FORWARDER_SOURCE } from './forwarder';
import { guardGitLinks } from './git-link-guard';
import { type GitShadows, prepareGitShadows } from './git-shadow';
import { RunLaterGuard } from './run-later-guard';
import { type HolderLease, HolderPool } from './holder-pool';
import { findNsenter, holderWorks } from './net-holder';
import { guardNewRepositories } from './new-repositories';
import { linkedWorktreeAt } from './linked-worktree';
import { NestedRepositories } from './nested-repositories';
import { startBoxProxy } from './proxy';
import { seatbeltProfile } from './seatbelt-profile';
import { StandIns } from './stand-ins';

export interface SandboxSettings {
  mode: SandboxMode;
  allowedHosts: readonly string[];
  /** Absolute folders (the policy's validated sextant.sandbox.extraWriteRoots). */
  extraWriteRoots: readonly string[];
  /** The administrator requires the box (managed settings). */
  required?: boolean;
}

export interface SandboxHostOptions {
  settings(): SandboxSettings;
  /** Real paths of the workspace folders; the first is where commands start. */
  workspaceFolders(): readonly string[];
  home: string;
  /** Where boxes keep their temp folders and sockets (default: the OS temp folder). */
  stateRoot?: string;
  /** The Node binary that runs the in-box forwarder (default: this process's). */
  node?: string;
  /**
   * nsenter, which starts each command in its chat's network holder (default: found on the system);
   * `false`: no holders, a network namespace (and a forwarder) per command — the fallback path.
   */
  nsenter?: string | false;
  detect?: () => Detected;
  /**
   * The host's environment, where the socket folders are found ($XDG_RUNTIME_DIR, a unix DOCKER_HOST);
   * default: this process's.
   */
  hostEnv?: Readonly<Record<string, string | undefined>>;
  /** Every connection a boxed command asked for, allowed or refused (the audit log). */
  onConnection?(c: BoxConnection, who: { sessionId: string; callId: string }): void;
  /** Writes a refusal's narrow rule into user settings. */
  widen?(refusal: BoxRefusal): Promise<void>;
}

export interface SandboxHost extends SandboxPort {
  dispose(): void;
}

export function createSandbox(o: SandboxHostOptions): SandboxHost {
  let detected: Detected | undefined;
  const backend = () => (detected ??= (o.detect ?? detectBackend)());
  const stateRoot = o.stateRoot ?? join(tmpdir(), `sextant-box-${process.getuid?.() ?? 'u'}`);
  const standIns = new StandIns();
  const runLaterGuard = new RunLaterGuard();
  /** Repositories inside the workspace folders, as the last walk found them. */
  const nested = new NestedRepositories();
  const live = new Set<() => BoxRefusal[]>();
  /** The chats' private /tmp folders this window made: removed when it closes (they are temp). */
  const sessionTemps = new Set<string>();
  let seq = 0;

  const status = (): SandboxStatus => {
    const { mode, required } = o.settings();
    const d = backend();
    const pinned = required ? { required: true } : {};
    if (!d.ok) return { mode, active: false, reason: d.reason, fix: d.fix, ...pinned };
    return { mode, backend: d.backend, active: mode !== 'off', ...pinned };
  };

  /** Empty stand-ins shared by every box of this window (bound read-only, so they stay empty). */
  let shared: { emptyFile: string; emptyDir: string } | undefined;
  const standInsSource = () => {
    if (shared) return shared;
    const dir = join(stateRoot, `e-${process.pid}`);
    mkdirSync(join(dir, 'empty-dir'), { recursive: true, mode: 0o700 });
    // Another sandbox of this process may have made it (it is read-only then): keep that one.
    if (!existsSync(join(dir, 'empty-file'))) writeFileSync(join(dir, 'empty-file'), '', { mode: 0o400 });
    shared = { emptyFile: join(dir, 'empty-file'), emptyDir: join(dir, 'empty-dir') };
    return shared;
  };
  /** Chats' network holders (holder-pool.ts), made on first use. */
  let pool: HolderPool | undefined;
  /** Set when holders proved not to work here (no nsenter, nested namespaces refused): a box per command. */
  let holdersOff = o.nsenter === false;
  /** Whether a command runs through a holder here: tried once, on the first holder. */
  let holderChecked = false;
  const holders = (bwrap: string): HolderPool | undefined => {
    if (holdersOff) return undefined;
    if (pool) return pool;
    const nsenter = typeof o.nsenter === 'string' ? o.nsenter : findNsenter();
    if (!nsenter) {
      holdersOff = true;
      return undefined;
    }
    pool = new HolderPool({
      bwrap,
      nsenter,
      stateRoot,
      node: o.node ?? process.execPath,
      allowedHosts: () => o.settings().allowedHosts,
      onConnection: (c, who) => o.onConnection?.(c, who),
    });
    return pool;
  };

  const launch = async (req: LaunchRequest): Promise<BoxedLaunch> => {
    const d = backend();
    if (!d.ok) throw new Error(`No sandbox: ${d.reason}. ${d.fix}.`);
    const settings = o.settings();
    mkdirSync(stateRoot, { recursive: true, mode: 0o700 });
    const sessionTemp = join(stateRoot, `s-${safeName(req.sessionId)}`);
    mkdirSync(sessionTemp, { recursive: true, mode: 0o700 });
    sessionTemps.add(sessionTemp);
    const planned = planBox({
      workspaceFolders: req.workspaceFolders?.length
        ? req.workspaceFolders
        : o.workspaceFolders().length
          ? o.workspaceFolders()
          : [req.cwd],
      extraWriteRoots: settings.extraWriteRoots,
      home: o.home,
      sessionTemp,
      allowedHosts: settings.allowedHosts,
      socketFolders: socketFolders(o.hostEnv ?? process.env, o.home),
      gitFolder,
      gitFileTarget,
      linkedWorktree: (root) => linkedWorktreeAt(root, gitFolderAt),
      nestedRepositories: (root) => nested.below(root),
      kindOf,
    });
    // A long-lived process (an MCP server) would keep its stand-ins — empty folders named AGENTS.md,
    // .npmrc, … — in the workspace for as long as it runs: it gets the protected paths that exist.
    const plan = req.longLived ? { ...planned, readOnly: planned.readOnly.filter((r) => r.exists) } : planned;
    const connections: BoxConnection[] = [];
    const useProxy = plan.allowedHosts.length > 0;
    const joinStderr = !req.separateStderr;
    let file: string;
    let args: string[];
    // No variable leads the command to a host socket or agent (the folders are covered too).
    let env = withoutHostIpc(req.env);
    let releaseBox = () => {};
    let shadows: GitShadows | undefined;
    if (d.backend === 'bubblewrap') {
      const cover = coverable(stateRoot, plan);
      shadows = prepareGitShadows(plan, join(stateRoot, `g-${process.pid}-${++seq}`));
      const gitShadows = shadows.args;
      // A long-lived process (an MCP server) keeps a network of its own, as before: servers do not share
      // a loopback with each other or with the chat's commands, and its one start cost does not matter.
      const pool = req.longLived ? undefined : holders(d.bwrap);
      let lease: HolderLease | undefined;
      if (pool) {
        try {
          lease = await pool.lease(req.sessionId, useProxy, { callId: req.callId, record: (c) => connections.push(c) });
          if (!holderChecked) {
            if (!(await holderWorks(lease.enter, d.bwrap, BOX_BASE_ARGS_SHARED_NET)))
              throw new Error('nsenter refused');
            holderChecked = true;
          }
        } catch {
          // No holder here (nsenter refused, nested namespaces not allowed …): a box per command from now on.
          // Holders already serving commands stay until those end (dispose stops them).
          lease?.release();
          lease = undefined;
          if (!holderChecked) holdersOff = true;
        }
      }
      const empties = standInsSource();
      if (lease) {
        const held = lease;
        [file, ...args] = [
          ...held.enter,
          d.bwrap,
          ...bwrapArgs(
            plan,
            { ...empties, sharedNet: true, cover, gitShadows },
            boxScript(req.command, undefined, joinStderr),
          ),
        ];
        if (useProxy) env = { ...env, ...proxyEnv() };
        releaseBox = () => held.release();
      } else {
        const boxDir = makeBoxFolder(stateRoot, `b-${process.pid}-${++seq}`);
        let proxy: Server | undefined;
        if (useProxy) {
          writeFileSync(join(boxDir, 'forwarder.cjs'), FORWARDER_SOURCE, { mode: 0o400 });
          proxy = await startBoxProxy({
            listen: join(boxDir, PROXY_SOCKET),
            allowedHosts: () => plan.allowedHosts,
            onConnection: (c) => {
              connections.push(c);
              o.onConnection?.(c, { sessionId: req.sessionId, callId: req.callId });
            },
          });
          env = { ...env, ...proxyEnv() };
        }
        const script = boxScript(req.command, useProxy ? { node: o.node ?? process.execPath } : undefined, joinStderr);
        file = d.bwrap;
        args = bwrapArgs(plan, { ...empties, boxDir, cover, gitShadows }, script);
        releaseBox = () => {
          proxy?.close();
          rmSync(boxDir, { recursive: true, force: true });
        };
      }
      env.TMPDIR = '/tmp';
    } else {
      // macOS: no network namespace; the profile lets the box reach only the proxy's loopback port.
      let port: number | undefined;
      let proxy: Server | undefined;
      if (useProxy) {
        proxy = await startBoxProxy({
          listen: 0,
          allowedHosts: () => plan.allowedHosts,
          onConnection: (c) => {
            connections.push(c);
            o.onConnection?.(c, { sessionId: req.sessionId, callId: req.callId });
          },
        });
        const address = proxy.address();
        port = typeof address === 'object' && address ? address.port : undefined;
        if (port !== undefined) env = { ...env, ...proxyEnv(port) };
      }
      file = '/usr/bin/sandbox-exec';
      args = ['-p', seatbeltProfile(plan, port), '/bin/bash', '-c', boxScript(req.command, undefined, joinStderr)];
      env.TMPDIR = sessionTemp;
      releaseBox = () => proxy?.close();
    }
    const releaseStandIns = standIns.claim(plan.readOnly);
    const checkGitLinks = guardGitLinks(plan);
    const checkNewRepositories = guardNewRepositories(plan, undefined, (root, found) => nested.refresh(root, found));
    const checkRunLater = req.watchRunLater ? runLaterGuard.watch(plan) : undefined;
    let runLater: RunLaterChanges | undefined;
    let released = false;
    const release = (): BoxRefusal[] => {
      if (released) return [];
      released = true;
      live.delete(release);
      releaseStandIns();
      releaseBox();
      runLater = checkRunLater?.();
      // What the box undid or did not carry over after the command: a replaced .git link, files made in
      // the box's view of .git, repositories made in the workspace.
      return [...checkGitLinks(), ...(shadows?.release() ?? []), ...checkNewRepositories()];
    };
    live.add(release);
    return {
      file,
      args,
      env,
      plan,
      connections: () => [...connections],
      release,
      existsOnHost: existsSync,
      runLater: () => runLater,
    };
  };
  return {
    status,
    launch,
    widen: async (refusal) => {
      if (!o.widen) throw new Error('this host cannot save sandbox rules');
      await o.widen(refusal);
    },
    dispose: () => {
      for (const release of [...live]) release();
      pool?.dispose();
      pool = undefined;
      if (shared) rmSync(dirname(shared.emptyFile), { recursive: true, force: true });
      shared = undefined;
      for (const dir of sessionTemps) rmSync(dir, { recursive: true, force: true });
      sessionTemps.clear();
    },
  };
}

/** The host's socket folders that exist, as real paths, each once (/var/run is usually a link to /run). */
function socketFolders(env: Readonly<Record<string, string | undefined>>, home: string): string[] {
  const out = new Set<string>();
  for (const p of hostSocketFolders(env, home)) {
    try {
      const real = realpathSync(p);
      if (statSync(real).isDirectory()) out.add(real);
    } catch {
      /* not on this machine */
    }
  }
  return [...out];
}

/** `<root>/.git` when it is a folder (a link's target too): its real path and entries (kinds followed). */
function gitFolder(root: string): GitFolder | undefined {
  return gitFolderAt(join(root, '.git'));
}

/** The folder a `.git` file names (`gitdir: <path>`, relative to the file's folder), when it is one. */
function gitFileTarget(gitFile: string): GitFolder | undefined {
  try {
    const line = /^gitdir: *(.+?)\s*$/m.exec(readFileSync(gitFile, 'utf8').slice(0, 4096));
    return line ? gitFolderAt(resolve(dirname(gitFile), line[1])) : undefined;
  } catch {
    return undefined;
  }
}

function gitFolderAt(at: string): GitFolder | undefined {
  try {
    const path = realpathSync(at);
    if (!statSync(path).isDirectory()) return undefined;
    const entries: Array<{ name: string; kind: 'file' | 'dir' }> = [];
    for (const name of readdirSync(path)) {
      // A socket, a fifo or a dangling link is not bound: it is simply not there in the box.
      const st = statSync(join(path, name), { throwIfNoEntry: false });
      if (st?.isDirectory()) entries.push({ name, kind: 'dir' });
      else if (st?.isFile()) entries.push({ name, kind: 'file' });
    }
    return { path, entries };
  } catch {
    return undefined;
  }
}

function kindOf(path: string): 'file' | 'dir' | undefined {
  try {
    // Most protected paths do not exist: no exception for those (building one cost ~50 µs, ×30 a command).
    const st = statSync(normalizePath(path), { throwIfNoEntry: false });
    return st ? (st.isDirectory() ? 'dir' : 'file') : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The state folder holds every chat's /tmp: the box covers it, unless it is under /tmp (the box's
 * /tmp is its own) or holds a folder the box needs (a writable root, the command's folder).
 */
function coverable(stateRoot: string, plan: BoxPlan): string[] {
  const root = normalizePath(stateRoot);
  if (isUnder(root, '/tmp')) return [];
  if (plan.writable.some((w) => isUnder(w.path, root) || isUnder(root, w.path)) || isUnder(plan.cwd, root)) return [];
  return [root];
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48) || 'session';
}
