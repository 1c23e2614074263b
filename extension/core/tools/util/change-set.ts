// A change of several files (rename) from its text edits to what the user reviews, and back to disk:
// each file is loaded by the writers' own rules (inside the workspace or an extra write root, a text
// file — loadForWrite, the one source of those rules), its edits applied to its current text; once
// approved, every file is checked to still hold what was reviewed before anything is written, and a
// write that fails puts back the files already written, so the workspace never keeps half a rename.
import type { PendingApproval } from '../../../protocol';
import type { FileTextEdits, TextPosition } from '../../language/types';
import { errorResult, type ChangeSet, type ProposedChange, type ToolContext, type ToolResult } from '../types';
import { unifiedDiff } from './diff';
import { applyText, loadForWrite, type LoadedFile } from './edit-io';
import { displayPath, ToolInputError } from './paths';
import { isEdited, recheckReviewed } from './reviewed-change';
import { toEol } from './text';
import { errorText } from '../../util/error-text';

/** Files one change may touch: more is refused whole (half a rename would break the code). */
export const MAX_CHANGE_FILES = 100;
/** Lines of diff per file on the card; the editor's diff view shows the whole change. */
const CARD_DIFF_LINES = 120;
/** Lines of diff on the card over all files; files past it show their counts only. */
const CARD_TOTAL_DIFF_LINES = 600;

type ChangeSetView = NonNullable<PendingApproval['changeSet']>;

/** Offsets of each line's start; a line ends at \r\n, \n or \r, as in the editor. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

function offsetOf(text: string, starts: number[], p: TextPosition, shown: string): number {
  if (p.line < 0 || p.line >= starts.length || p.character < 0)
    throw new ToolInputError(`The edit of ${shown} points at line ${p.line + 1}, which the file does not have.`);
  const lineEnd = p.line + 1 < starts.length ? starts[p.line + 1] : text.length;
  return Math.min(starts[p.line] + p.character, lineEnd);
}

/** Applies a file's text edits (positions in the original text) to it; overlapping edits are refused. */
export function applyTextEdits(text: string, edits: FileTextEdits['edits'], shown: string): string {
  const starts = lineStarts(text);
  const spans = edits
    .map((e) => ({
      from: offsetOf(text, starts, e.range.start, shown),
      to: offsetOf(text, starts, e.range.end, shown),
      text: e.newText,
    }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.to < s.from || s.from < at) throw new ToolInputError(`The edits of ${shown} overlap; nothing was proposed.`);
    out += text.slice(at, s.from) + s.text;
    at = s.to;
  }
  return out + text.slice(at);
}

/**
 * Every file's new content from a provider's edits, by the writers' rules: a file outside the
 * workspace (and the extra write roots), missing, a folder or binary refuses the whole change.
 * Files the edits leave as they were are left out; workspace-relative paths, sorted.
 */
export async function changeSetFiles(
  ctx: ToolContext,
  edits: FileTextEdits[],
  verb: string,
): Promise<ProposedChange[]> {
  const byPath = new Map<string, FileTextEdits['edits']>();
  for (const f of edits) byPath.set(f.path, [...(byPath.get(f.path) ?? []), ...f.edits]);
  if (byPath.size > MAX_CHANGE_FILES)
    throw new ToolInputError(
      `This ${verb} would change ${byPath.size} files; at most ${MAX_CHANGE_FILES} are proposed at once, and a part ` +
        'of it would leave the code broken. Nothing was proposed: narrow it, or make the change in smaller steps.',
    );
  const out: ProposedChange[] = [];
  for (const [abs, list] of byPath) {
    const shown = displayPath(ctx.ports.workspace, abs);
    const file = await loadForWrite(ctx, abs, verb, { requireRead: false });
    if (!file.exists)
      throw new ToolInputError(`The ${verb} edits ${shown}, which does not exist; nothing was proposed.`);
    const after = applyTextEdits(file.text, list, shown);
    if (after !== file.text) out.push({ path: abs, displayPath: shown, isNew: false, before: file.text, after });
  }
  return out.sort((a, b) => a.displayPath.localeCompare(b.displayPath));
}

/** What the card, the journal and the webview get of a change set: paths, counts and capped diffs. */
export function changeSetSummary(set: ChangeSet): ChangeSetView {
  let budget = CARD_TOTAL_DIFF_LINES;
  let hidden = 0;
  const files = set.files.map((c) => {
    const { text, stat } = unifiedDiff(c.before, c.after, c.displayPath, { maxLines: CARD_DIFF_LINES });
    const lines = text.split('\n').length;
    const shown = lines <= budget;
    if (shown) budget -= lines;
    else hidden++;
    return { path: c.displayPath, isNew: c.isNew, added: stat.added, removed: stat.removed, diff: shown ? text : '' };
  });
  const notes = [
    set.note,
    hidden ? `The diffs of ${hidden} more file${hidden > 1 ? 's' : ''} are in the editor's diff view only.` : undefined,
  ].filter(Boolean);
  return { files, ...(notes.length ? { note: notes.join(' ') } : {}) };
}

/**
 * Writes an approved change set as reviewed (each file the user edited: their text). Every file is
 * first checked to still hold what was reviewed — any that does not refuses the whole change, nothing
 * written. A write that fails restores the files written before it.
 */
export async function applyChangeSet(
  ctx: ToolContext,
  set: ChangeSet,
  edited: Readonly<Record<string, string>> = {},
  verb = 'Changed',
): Promise<ToolResult> {
  const checked: LoadedFile[] = [];
  for (const change of set.files) {
    const check = await recheckReviewed(ctx, change);
    if (!check.ok) return check.result;
    checked.push(check.file);
  }
  const written: LoadedFile[] = [];
  const lines: string[] = [];
  const diffs: string[] = [];
  const userEdits: string[] = [];
  for (const [k, change] of set.files.entries()) {
    const file = checked[k];
    const mine = edited[change.path];
    const text = isEdited(change, mine) ? toEol(mine, file.format.eol) : change.after;
    try {
      await applyText(ctx, file, text);
    } catch (e) {
      return errorResult(`${await restore(ctx, written)} ${change.displayPath} could not be written: ${errorText(e)}`);
    }
    written.push(file);
    const { text: diff, stat } = unifiedDiff(change.before, text, change.displayPath, { maxLines: CARD_DIFF_LINES });
    const byUser = text !== change.after;
    lines.push(`${change.displayPath} (+${stat.added} −${stat.removed})${byUser ? ', with the user’s edits' : ''}`);
    diffs.push(diff);
    if (byUser) userEdits.push(unifiedDiff(change.after, text, change.displayPath, { maxLines: CARD_DIFF_LINES }).text);
  }
  const n = set.files.length;
  const head = `${verb} ${n} file${n === 1 ? '' : 's'}: ${lines.join(', ')}.`;
  const told = userEdits.length
    ? `\nThe user edited your proposal before approving it; the files hold their version. What they changed:\n` +
      `${userEdits.join('\n')}\nTake their changes into account; do not undo them.`
    : '';
  const note = set.note ? `\n${set.note}` : '';
  return { forModel: `${head}${note}${told}`, forUi: `${head}${note}\n${diffs.join('\n')}`, isError: false };
}

/** Puts back what the files held before this change (newest first); says what it could not. */
async function restore(ctx: ToolContext, written: LoadedFile[]): Promise<string> {
  const failed: string[] = [];
  for (const file of [...written].reverse()) {
    try {
      await applyText(ctx, file, file.text);
    } catch {
      failed.push(displayPath(ctx.ports.workspace, file.abs));
    }
  }
  if (!written.length) return 'Not applied: nothing was written.';
  if (!failed.length)
    return `Not applied: the ${written.length} file${written.length > 1 ? 's' : ''} already written were put back.`;
  return `Not applied, and ${failed.join(', ')} could not be put back (the turn's checkpoint still has them).`;
}
