// A turn's part in the cross-session write guard (core/sessions/session-writes.ts): the guard its
// permission decisions consult, and the before-write hook that records each file it changes (by real path,
// as the permission path names files) after the checkpoint's own hook has run.
import { realPathOf } from '../tools/util/paths';
import type { SessionWriteGuard, WritingSession } from '../sessions/session-writes';
import type { ChatServices } from './chat-services';

export interface TurnWriteGuard {
  writeGuard: SessionWriteGuard;
  beforeWrite(absPath: string): Promise<void>;
}

/** Undefined when the host keeps no record of the window's writes (tests, the command line). */
export function turnWriteGuard(
  services: ChatServices,
  session: () => WritingSession,
  beforeWrite: ((absPath: string) => Promise<void>) | undefined,
): TurnWriteGuard | undefined {
  const writes = services.writes;
  if (!writes) return undefined;
  const writeGuard = writes.all.guardFor(session, writes.ownWorktree);
  const workspace = services.tools.ports.workspace;
  return {
    writeGuard,
    beforeWrite: async (absPath) => {
      await beforeWrite?.(absPath);
      writeGuard.changed(await realPathOf(workspace, absPath).catch(() => absPath));
    },
  };
}
