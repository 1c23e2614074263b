// multi_edit: several replacements in one file, applied in order, all or nothing.
import * as z from 'zod';
import { defineTool } from './types';
import { plural } from './util/cap';
import { commitChange, describeOrFailure } from './util/change';
import { failedEdit } from './util/edit-failures';
import { editSchema, planEdits } from './edit-file';

const input = z.object({
  file_path: z.string().describe('Absolute path, or a path relative to the workspace root.'),
  edits: z.array(editSchema).min(1).describe('Edits applied in order; each sees the result of the previous ones.'),
});

export const multiEditTool = defineTool({
  name: 'multi_edit',
  kind: 'write',
  permission: { subject: 'path', paths: (i) => [i.file_path] },
  modes: ['agent'],
  description: [
    'Makes several exact-text replacements in one file in a single step. Edits apply in order, each to the result',
    'of the previous,',
    'and the whole call is all or nothing: if any edit fails (absent or ambiguous old_string) the file is left',
    'unchanged and the error says which edit failed.',
    'Same rules as edit_file for each edit. Read the file first.',
  ].join(' '),
  input,
  subject: (i) => i.file_path,
  proposeChange: async (i, ctx) => (await planEdits(ctx, i.file_path, i.edits)).change,
  describeForApproval: (i, ctx) => describeOrFailure(async () => (await planEdits(ctx, i.file_path, i.edits)).change),
  async execute(i, ctx) {
    try {
      const { file, change, count } = await planEdits(ctx, i.file_path, i.edits);
      return await commitChange(
        ctx,
        file,
        change,
        `Applied ${plural(i.edits.length, 'edit')} (${plural(count, 'replacement')}) to`,
      );
    } catch (e) {
      return failedEdit(ctx, i.file_path, e);
    }
  },
});
