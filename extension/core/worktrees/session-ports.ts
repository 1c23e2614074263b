// A worktree session's ports: the window's shared ports, rooted at the worktree of the session a chat
// shows. Every file tool (read, write, edit, grep, glob, list), the commands' cwd (bash and `!`
// commands start at roots()[0]), checkpoints, rules and skills read through `workspace.roots()`, so one
// rooted WorkspacePort moves them all; the box gets the worktree as its only writable workspace folder;
// the permission gate judges paths against the worktree (its relative rules compiled there). Nothing a
// worktree session does reaches the main working tree: it is outside every root it is given.
//
// Rooted by the chat's *current* session, looked up on every call: a chat that resumes a worktree
// session from History works in its worktree, and "New chat" in that tab starts a plain session.
// Every file and command call waits for the worktree's files (`ready`, create.ts's background fill):
// the session's first model request needs no files, so it never waits for them.
import type { PermissionGate } from '../agent/permission-gate';
import type { ToolServices } from '../agent/chat-services';
import type { WorkspacePort } from '../ports';
import type { SandboxPort } from '../sandbox/types';
import { worktreeSessionRoots } from './box-roots';
import type { SessionWorktree } from './types';

/** A live worktree of a session: the record, and when its files are all written. */
export interface LiveWorktree {
  worktree: SessionWorktree;
  ready: Promise<void>;
}

/** Which worktree the chat's current session works in (undefined: the workspace, as any chat). */
export type CurrentWorktree = () => LiveWorktree | undefined;

type Ports = ToolServices['ports'];

export function rootedWorkspace(base: WorkspacePort, current: CurrentWorktree): WorkspacePort {
  /** Runs `f` once the current worktree (if any) has its files. */
  const after =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      await current()?.ready;
      return f(...a);
    };
  // Every member named (not `...base`): a port may be a class, whose methods a spread would drop.
  return {
    roots: () => {
      const live = current();
      return live ? worktreeSessionRoots(live.worktree).workspaceFolders : base.roots();
    },
    readFile: after(base.readFile.bind(base)),
    dirtyText: after(base.dirtyText.bind(base)),
    writeFile: after(base.writeFile.bind(base)),
    applyTextEdit: after(base.applyTextEdit.bind(base)),
    ...(base.applyNotebookEdit ? { applyNotebookEdit: after(base.applyNotebookEdit.bind(base)) } : {}),
    stat: after(base.stat.bind(base)),
    readDir: after(base.readDir.bind(base)),
    realPath: after(base.realPath.bind(base)),
    excludeGlobs: () => base.excludeGlobs(),
    ...(base.extraWriteRoots ? { extraWriteRoots: () => base.extraWriteRoots?.() ?? [] } : {}),
  };
}

/** The box of a worktree session: the worktree is its one workspace folder (so its only writable root). */
export function rootedSandbox(base: SandboxPort, current: CurrentWorktree): SandboxPort {
  return {
    status: () => base.status(),
    widen: (refusal) => base.widen(refusal),
    launch: async (req) => {
      const live = current();
      if (!live) return base.launch(req);
      await live.ready;
      return base.launch({ ...req, workspaceFolders: worktreeSessionRoots(live.worktree).workspaceFolders });
    },
  };
}

/**
 * The permission gate of a worktree session: the policy compiled for the worktree's folder (`rootedAt`,
 * the host's, which caches it and rebuilds it with the window's policy), else the window's.
 */
export function rootedGate(
  base: PermissionGate,
  rootedAt: (folders: string[]) => PermissionGate,
  current: CurrentWorktree,
): PermissionGate {
  return {
    policy: () => {
      const live = current();
      return live ? rootedAt(worktreeSessionRoots(live.worktree).workspaceFolders).policy() : base.policy();
    },
    rememberRule: (rule) => base.rememberRule(rule),
  };
}

/** The tool ports of a chat that may work in a worktree: files and box rooted, the rest shared. */
export function rootedPorts(base: Ports, current: CurrentWorktree): Ports {
  return {
    ...base,
    workspace: rootedWorkspace(base.workspace, current),
    ...(base.sandbox ? { sandbox: rootedSandbox(base.sandbox, current) } : {}),
  };
}
