// The sandbox port's implementation for this machine: detects a backend once, and for each command
// plans the box (core/sandbox/box-plan.ts), starts that box's proxy on a socket of its own (so every
// connection is attributed to its command in the audit log), and returns the launch — bwrap's
// command line on Linux, sandbox-exec with a generated profile on macOS. Node only; never 'vscode'.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizePath } from '../../core/permissions/paths';
import { planBox } from '../../core/sandbox/box-plan';
import type {
  BoxConnection,
  BoxedLaunch,
  BoxRefusal,
  LaunchRequest,
  SandboxMode,
  SandboxPort,
  SandboxStatus,
} from '../../core/sandbox/types';
import { boxScript, bwrapArgs, proxyEnv } from './bwrap-args';
import { detectBackend, type Detected } from './detect';
import { FORWARDER_SOURCE } from './forwarder';
import { startBoxProxy } from './proxy';
import { seatbeltProfile } from './seatbelt-profile';
import { StandIns } from './stand-ins';

export interface SandboxSettings {
  mode: SandboxMode;
  allowedHosts: readonly string[];
  /** Absolute folders (the policy's validated sextant.sandbox.extraWriteRoots). */
  extraWriteRoots: readonly string[];
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
  detect?: () => Detected;
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
  const live = new Set<() => void>();
  /** The chats' private /tmp folders this window made: removed when it closes (they are temp). */
  const sessionTemps = new Set<string>();
  let seq = 0;

  const status = (): SandboxStatus => {
    const mode = o.settings().mode;
    const d = backend();
    if (!d.ok) return { mode, active: false, reason: d.reason, fix: d.fix };
    return { mode, backend: d.backend, active: mode !== 'off' };
  };

  const launch = async (req: LaunchRequest): Promise<BoxedLaunch> => {
    const d = backend();
    if (!d.ok) throw new Error(`No sandbox: ${d.reason}. ${d.fix}.`);
    const settings = o.settings();
    mkdirSync(stateRoot, { recursive: true, mode: 0o700 });
    const sessionTemp = join(stateRoot, `s-${safeName(req.sessionId)}`);
    mkdirSync(sessionTemp, { recursive: true, mode: 0o700 });
    sessionTemps.add(sessionTemp);
    const boxDir = join(stateRoot, `b-${process.pid}-${++seq}`);
    mkdirSync(join(boxDir, 'empty-dir'), { recursive: true, mode: 0o700 });
    writeFileSync(join(boxDir, 'empty-file'), '', { mode: 0o400 });
    const planned = planBox({
      workspaceFolders: o.workspaceFolders().length ? o.workspaceFolders() : [req.cwd],
      extraWriteRoots: settings.extraWriteRoots,
      home: o.home,
      sessionTemp,
      allowedHosts: settings.allowedHosts,
      kindOf,
    });
    // A long-lived process (an MCP server) would keep its stand-ins — empty folders named AGENTS.md,
    // .npmrc, … — in the workspace for as long as it runs: it gets the protected paths that exist.
    const plan = req.longLived ? { ...planned, readOnly: planned.readOnly.filter((r) => r.exists) } : planned;
    const connections: BoxConnection[] = [];
    const record = (c: BoxConnection) => {
      connections.push(c);
      o.onConnection?.(c, { sessionId: req.sessionId, callId: req.callId });
    };
    let proxy: Server | undefined;
    const useProxy = plan.allowedHosts.length > 0;
    let file: string;
    let args: string[];
    let env = { ...req.env };
    if (d.backend === 'bubblewrap') {
      if (useProxy) {
        writeFileSync(join(boxDir, 'forwarder.cjs'), FORWARDER_SOURCE, { mode: 0o400 });
        proxy = await startBoxProxy({
          listen: join(boxDir, 'proxy.sock'),
          allowedHosts: () => plan.allowedHosts,
          onConnection: record,
        });
        env = { ...env, ...proxyEnv() };
      }
      const script = boxScript(
        req.command,
        useProxy ? { node: o.node ?? process.execPath } : undefined,
        !req.separateStderr,
      );
      file = d.bwrap;
      args = bwrapArgs(
        plan,
        { emptyFile: join(boxDir, 'empty-file'), emptyDir: join(boxDir, 'empty-dir'), boxDir },
        script,
      );
      env.TMPDIR = '/tmp';
    } else {
      // macOS: no network namespace; the profile lets the box reach only the proxy's loopback port.
      let port: number | undefined;
      if (useProxy) {
        proxy = await startBoxProxy({ listen: 0, allowedHosts: () => plan.allowedHosts, onConnection: record });
        const address = proxy.address();
        port = typeof address === 'object' && address ? address.port : undefined;
        if (port !== undefined) env = { ...env, ...proxyEnv(port) };
      }
      file = '/usr/bin/sandbox-exec';
      args = [
        '-p',
        seatbeltProfile(plan, port),
        '/bin/bash',
        '-c',
        boxScript(req.command, undefined, !req.separateStderr),
      ];
      env.TMPDIR = sessionTemp;
    }
    const releaseStandIns = standIns.claim(plan.readOnly);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      live.delete(release);
      releaseStandIns();
      proxy?.close();
      rmSync(boxDir, { recursive: true, force: true });
    };
    live.add(release);
    return { file, args, env, plan, connections: () => [...connections], release };
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
      for (const dir of sessionTemps) rmSync(dir, { recursive: true, force: true });
      sessionTemps.clear();
    },
  };
}

function kindOf(path: string): 'file' | 'dir' | undefined {
  try {
    const st = statSync(normalizePath(path));
    return st.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

function safeName(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48) || 'session';
}
