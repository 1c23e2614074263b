// Failed edits are cheap: a non-matching edit already comes back with the closest candidates; this
// counts failures per file in a row so the model gets one retry hint, then a firm "stop guessing"
// instead of burning steps on variations of the same wrong old_string.
import type { ToolContext, ToolResult } from '../types';
import { errorResult } from '../types';
import { displayPath, resolvePath, ToolInputError } from './paths';
import { errorText } from '../../util/error-text';

const SLOT = 'edit-failures';

function failures(ctx: ToolContext): Map<string, number> {
  let m = ctx.session.extras.get(SLOT) as Map<string, number> | undefined;
  if (!m) {
    m = new Map();
    ctx.session.extras.set(SLOT, m);
  }
  return m;
}

/** A successful write to the file ends its run of failures. */
export function clearEditFailures(ctx: ToolContext, abs: string): void {
  failures(ctx).delete(abs);
}

/**
 * The result of a failed edit. A mismatch (a ToolInputError with a card summary) is counted per file:
 * the first gets a retry hint, later ones a firm instruction to re-read or rewrite instead.
 */
export async function failedEdit(ctx: ToolContext, filePath: string, e: unknown): Promise<ToolResult> {
  if (!(e instanceof ToolInputError)) return errorResult(`Error: ${errorText(e)}`);
  if (!e.summary) return errorResult(e.message);
  const ws = ctx.ports.workspace;
  const abs = await resolvePath(ws, filePath).catch(() => filePath);
  const n = (failures(ctx).get(abs) ?? 0) + 1;
  failures(ctx).set(abs, n);
  const shown = displayPath(ws, abs);
  const hint =
    n === 1
      ? 'Retry once, with old_string copied exactly from the file (a candidate above, or read_file output).'
      : `This is failed edit ${n} in a row on ${shown}. Do not guess old_string again: read the lines you want ` +
        'to change with read_file and copy them exactly, rewrite the file with write_file, or ask the user.';
  const summary = n === 1 ? e.summary : `${e.summary} — failure ${n} in a row on this file`;
  return errorResult(`${e.message}\n\n${hint}`, summary);
}
