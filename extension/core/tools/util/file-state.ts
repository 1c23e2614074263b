// What the session knows about files it has read, so writers can refuse to clobber a file the
// model never saw or one that changed on disk since (write_file, edit_file, multi_edit).
import { createHash } from 'node:crypto';
import type { ToolContext } from '../types';
import type { FileStat } from '../../ports';
import { displayPath } from './paths';

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function recordRead(ctx: ToolContext, abs: string, stat: FileStat, bytes: Uint8Array): void {
  ctx.session.readFiles.set(abs, { mtimeMs: stat.mtimeMs, size: stat.size, sha256: sha256(bytes) });
}

/**
 * Undefined when the model may overwrite `abs`; otherwise a message saying why not. `bytes` are
 * the current disk bytes (used to forgive a changed mtime when the content is the same).
 */
export function staleReason(
  ctx: ToolContext,
  abs: string,
  stat: FileStat,
  bytes: Uint8Array,
  verb: string,
): string | undefined {
  const shown = displayPath(ctx.ports.workspace, abs);
  const seen = ctx.session.readFiles.get(abs);
  if (!seen) {
    return (
      `Refused to ${verb} ${shown}: it already exists and has not been read in this session. Read it with ` +
      `read_file first, then try again, so existing content is not lost by accident.`
    );
  }
  if (seen.mtimeMs === stat.mtimeMs && seen.size === stat.size) return undefined;
  if (seen.sha256 && seen.sha256 === sha256(bytes)) return undefined;
  return (
    `Refused to ${verb} ${shown}: it changed on disk since you last read it (someone or something else edited ` +
    `it). Read it again with read_file, then redo the change against the current content.`
  );
}
