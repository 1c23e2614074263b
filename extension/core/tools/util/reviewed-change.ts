// A file writer's change as the user reviews it in the editor's diff view: what the card shows,
// the check made right before an approved change is carried out (the file must still hold what the
// user reviewed — never apply blindly), and writing the user's edited proposal in the tool's place.
import type { PendingApproval } from '../../../protocol';
import { errorResult, type ProposedChange, type ToolContext, type ToolResult } from '../types';
import { unifiedDiff } from './diff';
import { applyText, loadForWrite, type LoadedFile } from './edit-io';
import { toEol } from './text';
import { errorText } from '../../util/error-text';

/** Lines of diff on the card; the editor's diff view shows the whole change. */
const CARD_DIFF_LINES = 120;
/** Lines of the user's changes to the proposal told to the model. */
const EDITS_DIFF_LINES = 200;

export function changeSummary(c: ProposedChange): NonNullable<PendingApproval['change']> {
  const { text, stat } = unifiedDiff(c.before, c.after, c.displayPath, { maxLines: CARD_DIFF_LINES });
  return { path: c.displayPath, isNew: c.isNew, added: stat.added, removed: stat.removed, diff: text };
}

const norm = (s: string) => s.replace(/\r\n/g, '\n');

/** True when the user's text differs from the proposal (line endings aside). */
export function isEdited(change: ProposedChange, editedText: string | undefined): editedText is string {
  return editedText !== undefined && norm(editedText) !== norm(change.after);
}

/**
 * Loads the file an approved change is about to touch and checks it still holds what the user
 * reviewed (the same text, still absent for a new file). Anything else is refused with a result
 * that tells the model to read the file again.
 */
export async function recheckReviewed(
  ctx: ToolContext,
  change: ProposedChange,
): Promise<{ ok: true; file: LoadedFile } | { ok: false; result: ToolResult }> {
  const refuse = (why: string): { ok: false; result: ToolResult } => ({
    ok: false,
    result: errorResult(
      `Not applied: ${change.displayPath} ${why} while the user was reviewing your change, so the reviewed diff no ` +
        'longer fits it. Nothing was written. Read the file again and redo the change against its current content.',
    ),
  });
  let file: LoadedFile;
  try {
    file = await loadForWrite(ctx, change.path, change.isNew ? 'create' : 'edit', { requireRead: false });
  } catch (e) {
    return { ok: false, result: errorResult(`Not applied: ${errorText(e)}`) };
  }
  if (change.isNew && file.exists) return refuse('was created by someone else');
  if (!change.isNew && !file.exists) return refuse('was deleted');
  if (norm(file.text) !== norm(change.before)) return refuse('changed');
  return { ok: true, file };
}

/**
 * Writes the user's edited proposal instead of the model's, and tells the model exactly what the
 * user changed relative to its proposal (the file now holds the user's text, not the model's).
 */
export async function applyEditedProposal(
  ctx: ToolContext,
  file: LoadedFile,
  change: ProposedChange,
  editedText: string,
): Promise<ToolResult> {
  const text = file.exists ? toEol(editedText, file.format.eol) : editedText;
  let via: 'editor' | 'disk';
  try {
    ({ via } = await applyText(ctx, file, text));
  } catch (e) {
    return errorResult(`Error: ${errorText(e)}`);
  }
  const edits = unifiedDiff(change.after, text, change.displayPath, { maxLines: EDITS_DIFF_LINES });
  const written = unifiedDiff(change.before, text, change.displayPath, { maxLines: CARD_DIFF_LINES });
  const verb = change.isNew ? 'Created' : 'Wrote';
  const counts = change.isNew ? `+${written.stat.added}` : `+${written.stat.added} −${written.stat.removed}`;
  const how = via === 'editor' ? ' (applied in the open editor and saved; Undo reverts it)' : '';
  return {
    forModel:
      `${verb} ${change.displayPath} (${counts})${how} — with the user's edits: they changed your proposed text ` +
      `before approving it. The file now holds their version. What they changed relative to your proposal:\n` +
      `${edits.text}\nTake their changes into account; do not undo them.`,
    forUi: `${verb} ${change.displayPath} (${counts})${how}, as edited by you\n${written.text}`,
    isError: false,
  };
}
