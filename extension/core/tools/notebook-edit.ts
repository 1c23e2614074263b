// notebook_edit: replace, insert or delete one cell of a Jupyter notebook, keeping the file's
// JSON layout. Cells are addressed by id (nbformat 4.5+) or by 0-based index.
import * as z from 'zod';
import { defineTool, type ProposedChange, type ToolContext } from './types';
import { commitChange, describeChange, describeOrFailure, failedChange } from './util/change';
import { recordRead } from './util/file-state';
import type { NotebookCellEdit } from '../ports';
import { loadForWrite, type LoadedFile } from './util/edit-io';
import { displayPath, resolvePath, ToolInputError } from './util/paths';
import { newCellId, parseNotebook, serializeNotebook, splitSource, type NbCell, type Notebook } from './util/notebook';

const input = z.object({
  notebook_path: z.string().describe('Path of the .ipynb file (absolute or workspace-relative).'),
  cell_id: z
    .string()
    .optional()
    .describe('Id of the cell to replace or delete, or after which to insert (as shown by read_file).'),
  cell_index: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('0-based cell index, instead of cell_id. For insert: the new cell gets this index.'),
  new_source: z.string().optional().describe('The new source of the cell (required for replace and insert).'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe('Cell type: required for insert (default code); for replace, changes the type.'),
  edit_mode: z.enum(['replace', 'insert', 'delete']).optional().describe('replace (default), insert or delete.'),
});
type Input = z.infer<typeof input>;

interface Plan {
  file: LoadedFile;
  change: ProposedChange;
  summary: string;
  /** The same edit, addressed by index, for a notebook open in the editor. */
  cellEdit: NotebookCellEdit;
}

async function plan(i: Input, ctx: ToolContext): Promise<Plan> {
  const ws = ctx.ports.workspace;
  const abs = await resolvePath(ws, i.notebook_path);
  const shown = displayPath(ws, abs);
  if (!abs.toLowerCase().endsWith('.ipynb'))
    throw new ToolInputError(`${shown} is not a .ipynb notebook; use edit_file for other files.`);
  const file = await loadForWrite(ctx, abs, 'edit', { requireRead: true });
  if (!file.exists) throw new ToolInputError(`Notebook not found: ${shown}.`);
  let nb: Notebook;
  try {
    nb = parseNotebook(file.text);
  } catch (e) {
    throw new ToolInputError(`${shown} could not be parsed: ${(e as Error).message}`);
  }
  const mode = i.edit_mode ?? 'replace';
  const find = (): number => {
    if (i.cell_id !== undefined) {
      const k = nb.cells.findIndex((c) => c.id === i.cell_id);
      if (k === -1) {
        const ids = nb.cells
          .map((c, n) => `${n}:${c.id ?? '(no id)'}`)
          .slice(0, 30)
          .join(', ');
        throw new ToolInputError(`No cell with id "${i.cell_id}" in ${shown}. Cells (index:id): ${ids}.`);
      }
      return k;
    }
    if (i.cell_index !== undefined) {
      if (i.cell_index >= nb.cells.length)
        throw new ToolInputError(
          `cell_index ${i.cell_index} is out of range: ${shown} has ${nb.cells.length} cells ` +
            `(0–${nb.cells.length - 1}).`,
        );
      return i.cell_index;
    }
    throw new ToolInputError('Give cell_id or cell_index to say which cell.');
  };
  let summary: string;
  let cellEdit: NotebookCellEdit;
  if (mode === 'delete') {
    const k = find();
    nb.cells.splice(k, 1);
    summary = `Deleted cell ${k} of`;
    cellEdit = { mode: 'delete', index: k };
  } else {
    if (i.new_source === undefined) throw new ToolInputError(`new_source is required for ${mode}.`);
    if (mode === 'insert') {
      let at = nb.cells.length;
      if (i.cell_id !== undefined) at = find() + 1;
      else if (i.cell_index !== undefined) at = Math.min(i.cell_index, nb.cells.length);
      const type = i.cell_type ?? 'code';
      const cell: NbCell = { cell_type: type, metadata: {}, source: splitSource(i.new_source) };
      if (type === 'code') Object.assign(cell, { execution_count: null, outputs: [] });
      const wantsIds =
        (nb.nbformat ?? 4) > 4 ||
        ((nb.nbformat ?? 4) === 4 && (nb.nbformat_minor ?? 0) >= 5) ||
        nb.cells.some((c) => c.id);
      if (wantsIds) cell.id = newCellId(new Set(nb.cells.map((c) => c.id ?? '')));
      nb.cells.splice(at, 0, wantsIds ? { id: cell.id, ...cell } : cell);
      summary = `Inserted a ${type} cell at index ${at} in`;
      cellEdit = { mode: 'insert', index: at, source: i.new_source, cellType: type };
    } else {
      const k = find();
      const cell = nb.cells[k];
      cell.source = splitSource(i.new_source);
      if (i.cell_type && i.cell_type !== cell.cell_type) {
        cell.cell_type = i.cell_type;
        if (i.cell_type === 'markdown') {
          delete cell.outputs;
          delete cell.execution_count;
        } else Object.assign(cell, { execution_count: null, outputs: [] });
      } else if (cell.cell_type === 'code') {
        // The old outputs no longer belong to this source.
        cell.outputs = [];
        cell.execution_count = null;
      }
      summary = `Replaced cell ${k} of`;
      cellEdit = {
        mode: 'replace',
        index: k,
        source: i.new_source,
        cellType: cell.cell_type === 'markdown' ? 'markdown' : 'code',
      };
    }
  }
  const after = serializeNotebook(nb, file.text);
  return { file, change: { path: abs, displayPath: shown, isNew: false, before: file.text, after }, summary, cellEdit };
}

export const notebookEditTool = defineTool({
  name: 'notebook_edit',
  kind: 'write',
  permission: { subject: 'path', paths: (i) => [i.notebook_path] },
  modes: ['agent'],
  description: [
    'Edits a Jupyter notebook (.ipynb) cell: replace its source (edit_mode "replace", the default), insert a new',
    'cell (after cell_id, or at cell_index), or delete it.',
    'Address cells by the id or index shown by read_file. Read the notebook first. Replacing a code cell clears its',
    'stale outputs.',
  ].join(' '),
  input,
  subject: (i) => i.notebook_path,
  proposeChange: async (i, ctx) => (await plan(i, ctx)).change,
  describeForApproval: (i, ctx) => describeOrFailure(async () => (await plan(i, ctx)).change),
  async execute(i, ctx) {
    try {
      const { file, change, summary, cellEdit } = await plan(i, ctx);
      // Open in the notebook editor: edit through the notebook API, so the user sees it and can undo.
      const ws = ctx.ports.workspace;
      await ctx.beforeWrite?.(change.path);
      if (ws.applyNotebookEdit && (await ws.applyNotebookEdit(change.path, cellEdit)) === 'applied') {
        const st = await ws.stat(change.path);
        if (st) recordRead(ctx, change.path, st, await ws.readFile(change.path));
        const how = '(applied in the open notebook editor and saved; Undo reverts it)';
        const what = `${summary} ${change.displayPath} ${how}.`;
        return { forModel: what, forUi: `${what}\n${describeChange(change)}`, isError: false };
      }
      return await commitChange(ctx, file, change, summary);
    } catch (e) {
      return failedChange(e);
    }
  },
});
