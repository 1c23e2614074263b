// Loading a file for a writer and applying new text to it: the text the user sees (unsaved editor
// text wins), the encoding to write back, the freshness check, and a read-back check after writing.
import type { ToolContext } from '../types';
import type { FileStat } from '../../ports';
import { decodeText, encodeText, fitsLatin1, type DecodedText } from './text';
import { recordRead, staleReason } from './file-state';
import { assertWritable, displayPath, ToolInputError } from './paths';

export interface LoadedFile {
  abs: string;
  exists: boolean;
  /** The current text (the editor's when dirty). '' for a new file. */
  text: string;
  format: Pick<DecodedText, 'encoding' | 'bom' | 'eol'>;
}

const NEW_FILE_FORMAT: LoadedFile['format'] = { encoding: 'utf8', bom: false, eol: '\n' };

/**
 * Loads a file a writer is about to change. Throws ToolInputError with a message for the model
 * when it may not: outside the workspace, a directory, binary, unread or changed since read.
 */
export async function loadForWrite(
  ctx: ToolContext,
  abs: string,
  verb: string,
  opts: { requireRead: boolean },
): Promise<LoadedFile> {
  const ws = ctx.ports.workspace;
  await assertWritable(ws, abs);
  const st = await ws.stat(abs);
  if (!st) return { abs, exists: false, text: '', format: NEW_FILE_FORMAT };
  const shown = displayPath(ws, abs);
  if (st.type === 'directory') throw new ToolInputError(`${shown} is a directory; give the path of a file.`);
  const bytes = await ws.readFile(abs);
  if (opts.requireRead) {
    const why = staleReason(ctx, abs, st, bytes, verb);
    if (why) throw new ToolInputError(why);
  }
  const d = decodeText(bytes);
  if (d.kind === 'binary') throw new ToolInputError(`Refused to ${verb} ${shown}: it is a binary file (${d.reason}).`);
  const dirty = await ws.dirtyText(abs);
  return { abs, exists: true, text: dirty ?? d.text, format: { encoding: d.encoding, bom: d.bom, eol: d.eol } };
}

/**
 * Writes `newText` (already in the file's line-ending convention) with the file's encoding,
 * undoably through the editor when open, verifies what landed, and records the new state as read.
 */
export async function applyText(
  ctx: ToolContext,
  file: LoadedFile,
  newText: string,
): Promise<{ via: 'editor' | 'disk' }> {
  const ws = ctx.ports.workspace;
  const shown = displayPath(ws, file.abs);
  const format =
    file.format.encoding === 'latin1' && !fitsLatin1(newText)
      ? { ...file.format, encoding: 'utf8' as const }
      : file.format;
  const bytes = encodeText(newText, format);
  await ctx.beforeWrite?.(file.abs);
  let via: 'editor' | 'disk';
  if (file.exists) via = await ws.applyTextEdit(file.abs, newText, bytes);
  else {
    await ws.writeFile(file.abs, bytes);
    via = 'disk';
  }
  const st: FileStat | undefined = await ws.stat(file.abs);
  const after = await ws.readFile(file.abs);
  const landed = decodeText(after);
  const norm = (s: string) => s.replace(/\r\n/g, '\n');
  if (!st || landed.kind !== 'text' || norm(landed.text) !== norm(newText)) {
    throw new Error(
      `Writing ${shown} did not produce the intended content (the editor or disk holds something else). Read the ` +
        'file again to see its state.',
    );
  }
  recordRead(ctx, file.abs, st, after);
  return { via };
}
