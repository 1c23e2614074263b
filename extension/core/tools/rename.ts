// rename: a symbol renamed everywhere it is used, through the editor's rename provider (VS Code's
// `vscode.executeDocumentRenameProvider`). The provider's WorkspaceEdit becomes a change of several
// files (tools/util/change-set.ts) that the loop judges file by file as writes, shows in the diff
// review and applies as approved — all of it or none.
import * as z from 'zod';
import { positionInput } from './code-intel';
import { defineTool, type ChangeSet, type ToolContext } from './types';
import { applyChangeSet, changeSetFiles } from './util/change-set';
import { failedChange } from './util/change';
import { resolvePosition } from './util/code-position';
import { ToolInputError } from './util/paths';
import { errorText } from '../util/error-text';

const input = positionInput.extend({
  new_name: z.string().min(1).max(200).describe('The new name.'),
});
type Input = z.infer<typeof input>;
/** What the permission policy judges once the change is known: every file it writes (absolute). */
type Judged = Input & { files?: string[] };

async function proposeRename(i: Input, ctx: ToolContext): Promise<ChangeSet> {
  const port = ctx.ports.language;
  if (!port)
    throw new ToolInputError("Rename is not available here (it needs the editor's language features). Use edit_file.");
  const newName = i.new_name.trim();
  if (!newName || /\s/.test(newName)) throw new ToolInputError('new_name must be one name, without spaces.');
  const pos = await resolvePosition(ctx, i);
  const where = `${pos.shown}:${pos.at.line + 1}:${pos.at.character + 1}`;
  const support = await port.track(pos.abs).catch(() => undefined);
  const language = support?.languageId ?? 'unknown';
  let edit: Awaited<ReturnType<typeof port.rename>>;
  try {
    edit = await port.rename(pos.abs, pos.at, newName);
  } catch (e) {
    // The provider's own reason ("You cannot rename this element.").
    throw new ToolInputError(`Cannot rename at ${where}: ${errorText(e)}`);
  }
  if (!edit || (!edit.files.length && !edit.unsupported.length)) {
    const none =
      !support || language === 'plaintext'
        ? `VS Code has no language support for ${pos.shown} (language "${language}"), so no rename provider`
        : `the rename provider for "${language}" returned no edits there (no symbol at that position, or none for ` +
          'this language)';
    throw new ToolInputError(`Cannot rename at ${where}: ${none}. Use edit_file for each place instead.`);
  }
  if (edit.unsupported.length)
    throw new ToolInputError(
      `Not proposed: the rename's edit does more than change text — ${edit.unsupported.join('; ')}. Sextant applies ` +
        'text edits of files in the workspace only. Rename with edit_file (and bash for moving files) instead.',
    );
  const files = await changeSetFiles(ctx, edit.files, 'rename');
  if (!files.length) throw new ToolInputError(`Renaming at ${where} to \`${newName}\` changes nothing.`);
  const judged: Judged = { ...i, files: files.map((f) => f.path) };
  return { files, ...(pos.note ? { note: pos.note } : {}), judgedInput: judged };
}

export const renameTool = defineTool({
  name: 'rename',
  description:
    "Renames a symbol (function, variable, class, method, …) everywhere it is used, through the editor's language " +
    'server — exact where search-and-replace guesses. Give the file, the line and the symbol name on that line, and ' +
    'the new name. The change of every file is reviewed and approved as one, and applied all or nothing.',
  kind: 'write',
  // Judged first for the file named, then (once the provider says which) for every file the rename writes.
  permission: { subject: 'path', paths: (i: Judged) => [i.path, ...(i.files ?? [])] },
  modes: ['agent'],
  input,
  subject: (i) => `${i.path}:${i.line} ${i.symbol ?? ''} → ${i.new_name}`.replace(/ {2,}/g, ' '),
  proposeChanges: proposeRename,
  // The loop applies the change it judged and the user reviewed; this runs it whole elsewhere (sub-agents' tests).
  async execute(i, ctx) {
    try {
      return await applyChangeSet(ctx, await proposeRename(i, ctx), {}, 'Renamed in');
    } catch (e) {
      return failedChange(e);
    }
  },
});
