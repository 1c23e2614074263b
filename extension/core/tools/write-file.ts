// write_file: create a file (and its folders) or replace a file the model has read.
import * as z from 'zod';
import { defineTool, type ProposedChange, type ToolContext } from './types';
import { commitChange, describeOrFailure, failedChange } from './util/change';
import { loadForWrite, type LoadedFile } from './util/edit-io';
import { displayPath, resolvePath, ToolInputError } from './util/paths';
import { toEol } from './util/text';

const input = z.object({
  file_path: z.string().describe('Absolute path, or a path relative to the workspace root.'),
  content: z.string().describe('The complete new content of the file.'),
  allow_empty: z
    .boolean()
    .optional()
    .describe('Set to true only when you really mean to empty an existing non-empty file.'),
});
type Input = z.infer<typeof input>;

async function plan(i: Input, ctx: ToolContext): Promise<{ file: LoadedFile; change: ProposedChange }> {
  const ws = ctx.ports.workspace;
  const abs = await resolvePath(ws, i.file_path);
  const file = await loadForWrite(ctx, abs, 'overwrite', { requireRead: true });
  if (file.exists && i.content === '' && file.text !== '' && !i.allow_empty) {
    throw new ToolInputError(
      `Refused to empty ${displayPath(ws, abs)}: content is empty but the file is not. If you really mean to empty ` +
        'it, call again with allow_empty: true.',
    );
  }
  // Keep the file's line endings; a new file gets the text as given.
  const after = file.exists ? toEol(i.content, file.format.eol) : i.content;
  return {
    file,
    change: { path: abs, displayPath: displayPath(ws, abs), isNew: !file.exists, before: file.text, after },
  };
}

export const writeFileTool = defineTool({
  name: 'write_file',
  kind: 'write',
  permission: { subject: 'path', paths: (i) => [i.file_path] },
  modes: ['agent'],
  description: [
    'Creates a new file (with any missing parent folders) or replaces the whole content of an existing one.',
    'An existing file must have been read with read_file in this session first, and must not have changed since;',
    'otherwise the write is refused.',
    'Prefer edit_file or multi_edit for changes to existing files: they are smaller, safer and easier to review.',
    'The file keeps its encoding, BOM and line endings. Do not create documentation or README files unless asked.',
  ].join(' '),
  input,
  subject: (i) => i.file_path,
  proposeChange: async (i, ctx) => (await plan(i, ctx)).change,
  describeForApproval: (i, ctx) => describeOrFailure(async () => (await plan(i, ctx)).change),
  async execute(i, ctx) {
    try {
      const { file, change } = await plan(i, ctx);
      if (file.exists && change.before === change.after) {
        return {
          forModel: `${change.displayPath} already has exactly this content; nothing was written.`,
          forUi: `${change.displayPath}: unchanged`,
          isError: false,
        };
      }
      return await commitChange(ctx, file, change, change.isNew ? 'Created' : 'Wrote');
    } catch (e) {
      return failedChange(e);
    }
  },
});
