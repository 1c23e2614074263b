// A turn's part in the cross-session write guard (core/sessions/session-writes.ts): the guard its
// permission decisions consult, and the before-write hook that records each file it changes (by real path,
// as the permission path names files) after the checkpoint's own hook has run, and the files each command
// changed, where the checkpoint's command coverage saw them (without coverage, a command's changes are unknown).
import { realPathOf } from '../tools/util/paths';
import type { SessionWriteGuard, WritingSession } from '../sessions/session-writes';
import type { ChatServices } from './chat-services';

export interface TurnWriteGuard {
  writeGuard: SessionWriteGuard;
  beforeWrite(absPath: string): Promise<void>;
  /** Before a command; once it ended, records the files it changed (as the checkpoint's coverage saw them). */
  beforeCommand(): Promise<() => Promise<void>>;
}

/** Undefined when the host keeps no record of the window's writes (tests, the command line). */
export function turnWriteGuard(
  services: ChatServices,
  session: () => WritingSession,
  beforeWrite: ((absPath: string) => Promise<void>) | undefined,
  beforeCommand: (() => Promise<() => Promise<readonly string[] | undefined>>) | undefined,
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
    beforeCommand: async () => {
      const after = await beforeCommand?.();
      return async () => {
        for (const path of (await after?.()) ?? []) writeGuard.changed(path);
      };
    },
  };
}
