// The bubblewrap command line for one boxed command, from the box plan (core/sandbox/box-plan.ts).
// Pure, so the rules can be read and tested without running bwrap.
//
// The whole file system is bound read-only; the box gets its own /dev, /proc (a new PID namespace)
// and /tmp (this session's temp folder); the writable roots are bound writable over it; protected
// paths inside them are bound read-only again — a missing one gets an empty read-only folder as a
// stand-in, so nothing can be created there; secret folders become empty read-only tmpfs, secret files an empty
// file; the folders of the host's unix sockets (/run, $XDG_RUNTIME_DIR …) an empty private tmpfs; a
// repository's .git the box's own folder (git-shadow.ts). A new network namespace has only loopback:
// the one way out is the proxy bridge.
import type { BoxPlan } from '../../core/sandbox/types';

/** Where the box's own files (the proxy socket, the forwarder) appear inside the box. */
export const BOX_DIR_INSIDE = '/tmp/.sextant-box';
/** The forwarder's port on the box's loopback (the box has a network namespace of its own). */
export const PROXY_PORT_INSIDE = 3128;

export interface BwrapLayout {
  /** An empty file and an empty folder on the host, used as read-only stand-ins. */
  emptyFile: string;
  emptyDir: string;
  /** This box's folder on the host (proxy socket, forwarder), bound at BOX_DIR_INSIDE; none with a holder. */
  boxDir?: string;
  /**
   * The command joins a chat's network holder (net-holder.ts): its network and IPC namespaces are
   * the holder's, entered by nsenter before bwrap, so bwrap makes neither.
   */
  sharedNet?: boolean;
  /**
   * Host folders to cover with an empty read-only tmpfs: where the boxes keep every chat's /tmp and
   * sockets, when that is not under /tmp already (which the box replaces with its own).
   */
  cover?: readonly string[];
  /** bwrap arguments that show each repository's `.git` as the box's own folder (git-shadow.ts). */
  gitShadows?: readonly string[];
}

/** The namespaces and the read-only root every box starts from (detect.ts tries exactly these). */
export const BOX_BASE_ARGS: readonly string[] = [
  '--die-with-parent',
  '--new-session',
  '--unshare-net',
  '--unshare-pid',
  '--unshare-ipc',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
];

/** BOX_BASE_ARGS for a command that joins a holder's network and IPC namespaces. */
export const BOX_BASE_ARGS_SHARED_NET: readonly string[] = BOX_BASE_ARGS.filter(
  (a) => a !== '--unshare-net' && a !== '--unshare-ipc',
);

export function bwrapArgs(plan: BoxPlan, layout: BwrapLayout, script: string): string[] {
  const base = layout.sharedNet ? BOX_BASE_ARGS_SHARED_NET : BOX_BASE_ARGS;
  const args = [...base, '--bind', plan.sessionTemp, '/tmp'];
  // Before the writable roots, so a workspace under /run (/run/media/…) is bound again on top.
  for (const s of plan.hostSockets) args.push('--tmpfs', s);
  for (const w of plan.writable) args.push('--bind', w.path, w.path);
  for (const c of layout.cover ?? []) args.push('--tmpfs', c, '--remount-ro', c);
  // Writable as before, but a mount point now: renaming `.git` away fails (EBUSY), with its hooks in it.
  for (const p of plan.pinned) args.push('--bind', p, p);
  args.push(...(layout.gitShadows ?? []));
  for (const r of plan.readOnly) {
    if (r.exists) args.push('--ro-bind', r.path, r.path);
    // A stand-in is always an empty folder: git ignores it (an empty file would show as untracked).
    else args.push('--ro-bind', layout.emptyDir, r.path);
  }
  for (const h of plan.hidden) {
    if (h.kind === 'dir') args.push('--tmpfs', h.path, '--remount-ro', h.path);
    else args.push('--ro-bind', layout.emptyFile, h.path);
  }
  if (layout.boxDir) args.push('--bind', layout.boxDir, BOX_DIR_INSIDE);
  args.push('--chdir', plan.cwd, '/bin/bash', '-c', script);
  return args;
}

/**
 * The shell text the box runs: with allowed hosts, it starts the in-box forwarder and waits until it
 * listens (so the first connection cannot race it); then the command, stderr joined to stdout unless
 * `joinStderr` is false (a stdio MCP server's stdout is its protocol).
 */
export function boxScript(command: string, forwarder: { node: string } | undefined, joinStderr = true): string {
  const prelude = forwarder
    ? `exec 3< <(ELECTRON_RUN_AS_NODE=1 exec ${shellQuote(forwarder.node)} ${BOX_DIR_INSIDE}/forwarder.cjs ` +
      `${BOX_DIR_INSIDE}/proxy.sock ${PROXY_PORT_INSIDE}); read -r _ <&3; exec 3<&-; `
    : '';
  return `${prelude}${joinStderr ? 'exec 2>&1; ' : ''}${command}`;
}

/** The proxy variables a boxed command sees (HTTP CONNECT and SOCKS5 on one port). */
export function proxyEnv(port = PROXY_PORT_INSIDE): Record<string, string> {
  const http = `http://127.0.0.1:${port}`;
  const socks = `socks5h://127.0.0.1:${port}`;
  const noProxy = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: http,
    HTTPS_PROXY: http,
    ALL_PROXY: socks,
    NO_PROXY: noProxy,
    http_proxy: http,
    https_proxy: http,
    all_proxy: socks,
    no_proxy: noProxy,
  };
}

export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
