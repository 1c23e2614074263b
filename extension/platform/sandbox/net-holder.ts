// A chat's network, made once: a small long-lived bwrap box (a "holder") owns a network and an IPC
// namespace — loopback only — and, when hosts are allowed, runs the in-box forwarder to the host's
// proxy on that loopback. Each command is still a bwrap box of its own (own mounts, stand-ins, /proc,
// PID namespace), started through `nsenter` into the holder's network: it no longer pays for a new
// network namespace and a Node forwarder every time (those were most of the added time: +115…239 ms
// per command with the proxy bridge). The holder binds nothing writable: no stand-ins, no workspace.
//
// Unprivileged, bwrap makes a second, nested user namespace when it mounts a /dev (it needs uid 0 in
// the first to mount devpts), and the network namespace then belongs to the outer one, out of reach
// of nsenter. So the holder has no --dev: its one user namespace owns its network, nsenter joins both
// (--preserve-credentials keeps the user's uid, so the exec'd bwrap has no capabilities in it), and
// the command's bwrap nests its own user namespace inside as usual. As root, no user namespace is
// made and nsenter joins the network only.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { BOX_DIR_INSIDE, PROXY_PORT_INSIDE, shellQuote } from './bwrap-args';

const NSENTER_PATHS = ['/usr/bin/nsenter', '/bin/nsenter', '/usr/sbin/nsenter', '/sbin/nsenter'];

export function findNsenter(): string | undefined {
  return NSENTER_PATHS.find((p) => existsSync(p));
}

export interface NetHolderOptions {
  bwrap: string;
  nsenter: string;
  /** This holder's folder on the host (proxy socket, forwarder), bound at BOX_DIR_INSIDE. */
  boxDir: string;
  /** Runs the forwarder (hosts are allowed); without it the holder only keeps the namespaces. */
  forwarder?: { node: string };
  /** Called once when the holder has gone (its forwarder died, it was stopped). */
  onExit(): void;
}

export interface NetHolder {
  /** What goes before bwrap on a command's line: nsenter into this holder's network (and user) namespace. */
  readonly enter: string[];
  /** Still running, and its namespace is the one commands join (not a reused pid). */
  alive(): boolean;
  stop(): void;
}

/** The holder's own box: read-only root, own network, IPC and PID namespaces; no /dev (see above). */
export function holderArgs(boxDir: string, forwarder: { node: string } | undefined, root: boolean): string[] {
  const run = forwarder
    ? `ELECTRON_RUN_AS_NODE=1 exec ${shellQuote(forwarder.node)} ${BOX_DIR_INSIDE}/forwarder.cjs ` +
      `${BOX_DIR_INSIDE}/proxy.sock ${PROXY_PORT_INSIDE}`
    : // Nothing to serve: print ready and wait on stdin, which the host holds open (and never writes).
      'echo ready; exec cat';
  return [
    '--die-with-parent',
    '--new-session',
    ...(root ? [] : ['--unshare-user']),
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-pid',
    '--ro-bind',
    '/',
    '/',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--bind',
    boxDir,
    BOX_DIR_INSIDE,
    '--json-status-fd',
    '3',
    '/bin/bash',
    '-c',
    run,
  ];
}

const isRoot = () => process.getuid?.() === 0;

export async function startNetHolder(o: NetHolderOptions): Promise<NetHolder> {
  const child = spawn(o.bwrap, holderArgs(o.boxDir, o.forwarder, isRoot()), {
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
    o.onExit();
  });
  child.once('error', () => {
    exited = true;
    o.onExit();
  });
  try {
    const [pid] = await Promise.all([childPid(child), ready(child)]);
    const net = readlinkSync(`/proc/${pid}/ns/net`);
    const ownUser = readlinkSync('/proc/self/ns/user');
    const theirUser = readlinkSync(`/proc/${pid}/ns/user`);
    const userArgs = theirUser === ownUser ? [] : ['--user', '--preserve-credentials'];
    const enter = [o.nsenter, `--target=${pid}`, ...userArgs, '--net', '--ipc', '--'];
    const alive = () => {
      if (exited) return false;
      try {
        return readlinkSync(`/proc/${pid}/ns/net`) === net;
      } catch {
        return false;
      }
    };
    return {
      enter,
      alive,
      stop: () => {
        if (!exited) child.kill('SIGKILL');
      },
    };
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
}

/** Tries a command through a holder once: nsenter and a nested bwrap work here (else: a box per command). */
export function holderWorks(enter: readonly string[], bwrap: string, baseArgs: readonly string[]): Promise<boolean> {
  const [file, ...args] = enter;
  return new Promise((resolve) => {
    const child = spawn(file, [...args, bwrap, ...baseArgs, '/bin/true'], { stdio: 'ignore', timeout: 10_000 });
    child.once('error', () => resolve(false));
    child.once('exit', (code) => resolve(code === 0));
  });
}

function childPid(child: ChildProcess): Promise<number> {
  const status = child.stdio[3] as NodeJS.ReadableStream | null;
  return new Promise((resolve, reject) => {
    if (!status) return reject(new Error('the network holder has no status pipe'));
    let text = '';
    const onData = (b: Buffer) => {
      text += b.toString();
      const m = /"child-pid":\s*(\d+)/.exec(text);
      if (m) {
        status.off('data', onData);
        status.resume();
        resolve(Number(m[1]));
      }
    };
    status.on('data', onData);
    status.once('end', () => reject(new Error(`the network holder did not start: ${text.trim()}`)));
    child.once('exit', (code) => reject(new Error(`the network holder exited (${code})`)));
  });
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (b: Buffer) => {
      if (err.length < 2000) err += b.toString();
    });
    child.stdout?.once('data', () => {
      child.stdout?.resume();
      resolve();
    });
    child.once('exit', (code) => reject(new Error(`the network holder exited (${code}): ${err.trim()}`)));
  });
}
