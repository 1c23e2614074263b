// What a chat's session sees when it works in a worktree: each chat slot's tool ports, permission gate,
// rules/skills/commands and `@` references rooted at the worktree of the session it currently shows
// (core/worktrees/session-ports.ts), else exactly the window's. chat-slots.ts asks for one per slot.
import * as os from 'node:os';
import type { ToolServices } from '../core/agent/chat-services';
import type { PermissionGate } from '../core/agent/permission-gate';
import { ProjectContext } from '../core/extensions/project-context';
import { type PluginFolders, projectFilesOver } from '../core/extensions/project-files';
import { rootedGate, rootedPorts } from '../core/worktrees/session-ports';
import type { WorktreeSessions } from '../core/worktrees/session-registry';
import type { HandlerHost } from './handlers';
import type { SharedHandlerParts } from './handler-parts';

export interface SlotRooting {
  ports: ToolServices['ports'];
  permissions: PermissionGate | undefined;
  project: ProjectContext;
  /** Whether the session the slot shows now works in its own worktree (then no other chat's writes hold it back). */
  inWorktree(): boolean;
  /** What the slot's handler table takes instead of the shared parts (read on its first message). */
  handlers(): Partial<Pick<HandlerHost, 'project' | 'references'>>;
}

export interface RootingDeps {
  sessions: WorktreeSessions;
  ports: ToolServices['ports'];
  /** The window's permission gate, and the same policy for other folders (engine/permissions.ts). */
  permissions: { gate: PermissionGate; rootedAt(folders: string[]): PermissionGate };
  /** The shared handler parts (built after the first slots exist, so read late). */
  handlerParts(): SharedHandlerParts;
  /** The enabled plugins' command, agent and skill folders (the same in every worktree). */
  plugins?(): readonly PluginFolders[];
}

export function slotRooting(deps: RootingDeps): (sessionId: () => string) => SlotRooting {
  return (sessionId) => {
    const current = () => deps.sessions.get(sessionId());
    const ports = rootedPorts(deps.ports, current);
    const permissions = rootedGate(deps.permissions.gate, deps.permissions.rootedAt, current);
    const project = new ProjectContext(projectFilesOver(ports.workspace, os.homedir(), deps.plugins));
    return {
      ports,
      permissions,
      project,
      inWorktree: () => current() !== undefined,
      handlers: () => ({ project, references: deps.handlerParts().referencesOver(ports.workspace, permissions) }),
    };
  };
}
