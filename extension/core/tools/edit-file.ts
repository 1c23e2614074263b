// edit_file: one exact string replacement in a file.
import * as z from 'zod';
import { defineTool, type ProposedChange, type ToolContext } from './types';
import { commitChange, describeOrFailure } from './util/change';
import { failedEdit } from './util/edit-failures';
import { loadForWrite, type LoadedFile } from './util/edit-io';
import { displayPath, resolvePath, ToolInputError } from './util/paths';
import { replaceExact } from './util/replace';

export const editSchema = z.object({
  old_string: z
    .string()
    .describe(
      'The exact text to replace, including whitespace and indentation, without read_file line-number prefixes.',
    ),
  new_string: z.string().describe('The text to put in its place (must differ from old_string).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence instead of requiring exactly one (default false).'),
});

const input = editSchema.extend({
  file_path: z.string().describe('Absolute path, or a path relative to the workspace root.'),
});
type Input = z.infer<typeof input>;
export type EditSpec = z.infer<typeof editSchema>;

/**
 * Applies edits in order to a file's text. Any failure throws (nothing is written), naming the
 * edit that failed when there are several.
 */
export async function planEdits(
  ctx: ToolContext,
  filePath: string,
  edits: EditSpec[],
): Promise<{ file: LoadedFile; change: ProposedChange; count: number }> {
  const ws = ctx.ports.workspace;
  const abs = await resolvePath(ws, filePath);
  const shown = displayPath(ws, abs);
  const first = edits[0];
  const file = await loadForWrite(ctx, abs, 'edit', { requireRead: true });
  if (!file.exists) {
    // Creating a file through edit_file: only with an empty old_string, as Claude Code allows.
    if (edits.length === 1 && first.old_string === '') {
      return {
        file,
        change: { path: abs, displayPath: shown, isNew: true, before: '', after: first.new_string },
        count: 1,
      };
    }
    throw new ToolInputError(
      `${shown} does not exist. Create it with write_file (or edit_file with an empty old_string).`,
    );
  }
  let text = file.text;
  let count = 0;
  for (const [k, e] of edits.entries()) {
    if (e.old_string === '' && text === '' && edits.length === 1) {
      text = e.new_string;
      count++;
      continue;
    }
    const r = replaceExact(text, file.format.eol, e.old_string, e.new_string, e.replace_all ?? false);
    if (!r.ok) {
      const several = edits.length > 1;
      throw new ToolInputError(
        several ? `Edit ${k + 1} of ${edits.length} failed, so no edit was applied: ${r.message}` : r.message,
        several ? `edit ${k + 1} of ${edits.length}: ${r.summary}` : r.summary,
      );
    }
    text = r.text;
    count += r.count;
  }
  if (text === '' && file.text !== '') {
    // Only an edit whose old_string was the whole file and new_string empty may empty it.
    const intended = edits.some(
      (e) => e.new_string === '' && e.old_string.replace(/\r\n/g, '\n') === file.text.replace(/\r\n/g, '\n'),
    );
    if (!intended)
      throw new ToolInputError(
        `Refused: these edits would leave ${shown} empty. If that is really intended, replace the whole content in ` +
          'one edit, or use write_file with allow_empty.',
      );
  }
  return { file, change: { path: abs, displayPath: shown, isNew: false, before: file.text, after: text }, count };
}

export const editFileTool = defineTool({
  name: 'edit_file',
  kind: 'write',
  permission: { subject: 'path', paths: (i) => [i.file_path] },
  modes: ['agent'],
  description: [
    'Replaces exact text in a file: old_string must match the file exactly (whitespace and indentation included)',
    'and occur exactly once,',
    'unless replace_all is true. Read the file first (edits to unread or since-changed files are refused).',
    'Copy old_string from read_file output without the line-number prefix, and include enough surrounding lines to',
    'be unique.',
    'When old_string is not found, the error shows the closest candidates. Line endings, BOM and encoding are kept.',
    'For several changes to one file use multi_edit.',
  ].join(' '),
  input,
  subject: (i) => i.file_path,
  proposeChange: async (i, ctx) => (await planEdits(ctx, i.file_path, [i])).change,
  describeForApproval: (i, ctx) => describeOrFailure(async () => (await planEdits(ctx, i.file_path, [i])).change),
  async execute(i: Input, ctx) {
    try {
      const { file, change, count } = await planEdits(ctx, i.file_path, [i]);
      return await commitChange(
        ctx,
        file,
        change,
        change.isNew ? 'Created' : count > 1 ? `Replaced ${count} occurrences in` : 'Edited',
      );
    } catch (e) {
      return failedEdit(ctx, i.file_path, e);
    }
  },
});
