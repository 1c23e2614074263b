// The sandbox port: what the exec tools ask of "the box" and what a backend (bubblewrap on Linux,
// sandbox-exec on macOS — extension/platform/sandbox/) answers. Core decides *what* a boxed command
// may write, see and reach (box-plan.ts, pure); a backend only turns that plan into a launch.
import type { RunLaterChanges } from './run-later';

/** sextant.sandbox.mode: `auto` runs boxed commands without asking, `box` boxes and keeps the rules, `off`. */
export type SandboxMode = 'auto' | 'box' | 'off';

export interface SandboxStatus {
  mode: SandboxMode;
  /** The backend in use, when one works here. */
  backend?: 'bubblewrap' | 'sandbox-exec';
  /** Whether commands run boxed now (a backend works and the mode is not off). */
  active: boolean;
  /**
   * The administrator requires the box (managed settings): a command never runs outside it — not on the
   * model's request, not at the edge prompt, and not at all where no backend works.
   */
  required?: boolean;
  /** Why no backend works (Windows, bwrap missing, user namespaces refused …), in plain words. */
  reason?: string;
  /** What the user can do about it. */
  fix?: string;
}

/** A folder a boxed command may write, and why it is writable. */
export interface WritableRoot {
  path: string;
  why: 'workspace' | 'extra root' | 'build cache' | 'session temp';
}

/** A path kept read-only inside a writable root (it can make code run later), present or not. */
export interface ReadOnlyPath {
  path: string;
  kind: 'file' | 'dir';
  /** False: nothing is there yet; the backend still keeps anything from being created there. */
  exists: boolean;
  label: string;
  reason: string;
}

/** A secret location the box hides (an empty, read-only stand-in is all a command sees). */
export interface HiddenPath {
  path: string;
  kind: 'file' | 'dir';
  label: string;
  reason: string;
}

/**
 * A repository's `.git` as the box shows it (git-in-box.ts): a folder of the box's own, with the
 * repository's live folders bound writable, its other entries bound read-only, and copies of the files
 * git rewrites, carried back after the command when they changed.
 */
export interface GitInBox {
  /** The `.git` folder's real path (a `.git` link's target). */
  path: string;
  /** The path the workspace names it by (`<root>/.git`), for refusals. */
  via: string;
  /** Live folders that exist (objects, refs, logs, lfs). */
  live: string[];
  /** Every other entry that exists, bound read-only. */
  readOnly: Array<{ name: string; kind: 'file' | 'dir' }>;
  /** Rewritten files that exist now (index, HEAD …), copied in. */
  state: string[];
  /**
   * `common`: the repository's common `.git` seen from a linked worktree (worktree-in-box.ts): it takes
   * only objects, refs, logs, lfs and packed-refs; the main tree's index and HEAD stay read-only.
   */
  role?: 'common';
}

export interface BoxPlan {
  writable: WritableRoot[];
  readOnly: ReadOnlyPath[];
  /**
   * Folders inside a writable root that hold a read-only path (`.git` for `.git/hooks`): bound onto
   * themselves, so a command cannot rename them away and make a new one where the protection is not.
   */
  pinned: string[];
  /** Repositories whose `.git` the box shows as its own folder (only data is carried back). */
  git: GitInBox[];
  hidden: HiddenPath[];
  /** Host folders that hold unix sockets (/run, $XDG_RUNTIME_DIR …): an empty private tmpfs in the box. */
  hostSockets: string[];
  /** Hosts reached through the host's proxy; nothing else is reachable (no route at all). */
  allowedHosts: string[];
  /** Folder commands start in. */
  cwd: string;
  /** The session's temp folder on the host, seen as /tmp inside the box. */
  sessionTemp: string;
  home: string;
}

/** Which rule of the box refused something a command tried, and the narrow way to widen it, if any. */
export interface BoxRefusal {
  kind: 'protected' | 'outside' | 'secret' | 'network';
  /** The path or host that was refused. */
  target: string;
  /** The rule in plain words: "writes to .git/hooks stay read-only in the box: …". */
  rule: string;
  /** A narrow user rule that would allow it; absent for protected paths and secrets. */
  widen?: { setting: 'sandbox.extraWriteRoots' | 'sandbox.network.allowedHosts'; value: string; label: string };
}

/** One connection a boxed command asked the proxy for. */
export interface BoxConnection {
  host: string;
  port: number;
  allowed: boolean;
  /** The allowedHosts entry that let it through, or why it was refused. */
  rule: string;
}

/**
 * How to start `bash -c <command>` inside the box; release() once the process has exited. release()
 * returns what the box had to undo after the command (a `.git` link it replaced), as refusals.
 */
export interface BoxedLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
  plan: BoxPlan;
  /** Connections this box's proxy saw so far (allowed and refused). */
  connections(): BoxConnection[];
  release(): BoxRefusal[];
  /** Whether a path exists on the host, outside the box (to tell the host's /tmp from a missing file). */
  existsOnHost?(path: string): boolean;
  /**
   * After release(), for a request with `watchRunLater`: what the command changed in the files that run
   * later outside the box (core/sandbox/run-later.ts), for the caller to keep or undo; undefined if nothing.
   */
  runLater?(): RunLaterChanges | undefined;
}

export interface LaunchRequest {
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** For the audit log's lines about this box's connections. */
  sessionId: string;
  callId: string;
  /**
   * Keep stderr apart from stdout (default: joined, as in a terminal). A stdio MCP server speaks
   * JSON-RPC on stdout, so its stderr must not be mixed in.
   */
  separateStderr?: boolean;
  /**
   * A process that outlives a command (a stdio MCP server): protected paths that do not exist yet get
   * no stand-in (an empty read-only folder that would sit in the workspace while it runs); the ones
   * that exist stay read-only.
   */
  longLived?: boolean;
  /**
   * Watch the files that run later outside the box (package.json's scripts, node_modules/.bin, Makefile,
   * lint and build configs, .venv/bin): the agent's commands set it, and settle what changed after release.
   */
  watchRunLater?: boolean;
  /**
   * The workspace folders of this command's session when they are not the window's (a worktree
   * session's worktree, core/worktrees/session-ports.ts): the box's writable workspace roots.
   */
  workspaceFolders?: readonly string[];
}

export interface SandboxPort {
  /** Detected once; changes only with the mode setting. */
  status(): SandboxStatus;
  /** Only when status().active. Throws with a plain message when the box cannot be prepared. */
  launch(request: LaunchRequest): Promise<BoxedLaunch>;
  /** Writes a refusal's narrow user rule (the edge prompt's "Allow this host / folder"). */
  widen(refusal: BoxRefusal): Promise<void>;
}
