// read_file: numbered lines with offset/limit; images, PDFs and notebooks in forms a model can use.
import * as path from 'node:path';
import * as z from 'zod';
import { defineTool, errorResult, type ToolContext, type ToolResult } from './types';
import { displayPath, errnoCode, resolvePath } from './util/paths';
import { decodeText, splitLines } from './util/text';
import { cutLine, formatBytes } from './util/cap';
import { recordRead } from './util/file-state';
import { IMAGE_EXTENSIONS, sniffImage } from './util/images';
import { parseNotebook, renderNotebook } from './util/notebook';
import { extractPdfPages, parsePageSpec } from './util/pdf';
import { similarNames } from './util/suggest';

const DEFAULT_LIMIT = 2000;
const MAX_LINE = 2000;
const MAX_IMAGE_BYTES = 3_750_000;
const MAX_TEXT_CHARS = 256_000;
/** Files past this are not read at all (stat first, then a bounded read in case the file grows). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

function tooLarge(shown: string, size: number | undefined): ToolResult {
  const what = size === undefined ? 'grew past' : `is ${formatBytes(size)}, over`;
  return errorResult(
    `${shown} ${what} the ${formatBytes(MAX_FILE_BYTES)} read limit. ` +
      'Use grep to find the part you need, or bash with head/tail/sed to read a slice.',
  );
}

const input = z.object({
  file_path: z.string().describe('Absolute path, or a path relative to the workspace root.'),
  offset: z.number().int().min(1).optional().describe('1-based line number to start from (for long files).'),
  limit: z.number().int().min(1).optional().describe(`How many lines to read (default ${DEFAULT_LIMIT}).`),
  pages: z.string().optional().describe('For PDFs only: page numbers or ranges to read, e.g. "1-3,7".'),
});

export const readFileTool = defineTool({
  name: 'read_file',
  kind: 'read',
  permission: { subject: 'path', paths: (i) => [i.file_path] },
  modes: ['agent', 'plan'],
  description: [
    'Reads a file from the workspace. Text comes back with line numbers (`     1\\t…`); the numbers are not part of',
    'the file.',
    `Reads up to ${DEFAULT_LIMIT} lines by default; use offset and limit to page through long files. Lines longer`,
    `than ${MAX_LINE} characters are cut.`,
    'If the file is open in the editor with unsaved changes, you get the editor text.',
    'Images (PNG, JPEG, GIF, WebP) are returned as images when the model can see them; PDFs as text per page (use',
    '`pages` for big ones);',
    'Jupyter notebooks (.ipynb) as cells with their outputs. Binary files are refused.',
    'Read a file before you edit or overwrite it. Reading several files at once in parallel calls is fine and fast.',
  ].join(' '),
  input,
  subject: (i) => i.file_path,
  async execute(i, ctx) {
    const ws = ctx.ports.workspace;
    const abs = await resolvePath(ws, i.file_path);
    const shown = displayPath(ws, abs);
    const st = await ws.stat(abs);
    if (!st) {
      const alt = await similarNames(ws, abs);
      const guess = alt.length ? ` Did you mean: ${alt.map((a) => displayPath(ws, a)).join(', ')}?` : '';
      return errorResult(`File not found: ${shown}.${guess} Use glob to find files by name.`);
    }
    if (st.type === 'directory')
      return errorResult(`${shown} is a directory, not a file. Use ls to list it or glob to find files in it.`);
    // Devices, pipes and sockets never end or block (/dev/zero, a FIFO): only regular files are read.
    if (st.type !== 'file') return errorResult(`${shown} is not a regular file (a device, pipe or socket).`);
    if (st.size > MAX_FILE_BYTES) return tooLarge(shown, st.size);
    const ext = path.extname(abs).toLowerCase();
    let bytes: Uint8Array;
    try {
      bytes = await ws.readFile(abs, { maxBytes: MAX_FILE_BYTES, signal: ctx.signal });
    } catch (e) {
      if (errnoCode(e) === 'EFBIG') return tooLarge(shown, undefined);
      if (ctx.signal.aborted) return errorResult(`Reading ${shown} was aborted.`);
      return errorResult(`Could not read ${shown}: ${errnoCode(e) ?? (e as Error).message}`);
    }
    recordRead(ctx, abs, st, bytes);

    if (IMAGE_EXTENSIONS.has(ext) || sniffImage(bytes)) return readImage(bytes, shown, ctx);
    if (ext === '.pdf' || Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-')
      return readPdf(bytes, shown, i.pages);
    if (ext === '.ipynb') {
      const dirty = await ws.dirtyText(abs);
      return readNotebookFile(dirty ?? Buffer.from(bytes).toString('utf8'), shown, ctx);
    }

    const dirty = await ws.dirtyText(abs);
    let text: string;
    if (dirty !== undefined) text = dirty;
    else {
      const d = decodeText(bytes);
      if (d.kind === 'binary') {
        return errorResult(
          `${shown} looks like a binary file (${formatBytes(bytes.length)}; ${d.reason}), so it was not read. ` +
            'read_file shows text, images, PDFs and notebooks. If you need its metadata, bash tools such as ' +
            `\`file\` or \`xxd | head\` can help.`,
        );
      }
      text = d.text;
    }
    return numbered(text, shown, i.offset, i.limit, dirty !== undefined);
  },
});

function numbered(
  text: string,
  shown: string,
  offset: number | undefined,
  limit: number | undefined,
  dirty: boolean,
): ToolResult {
  const note = dirty ? ' (unsaved editor text)' : '';
  if (text === '') {
    const msg = `${shown} is empty${note}.`;
    return { forModel: msg, forUi: msg, isError: false };
  }
  const lines = splitLines(text);
  const start = (offset ?? 1) - 1;
  if (start >= lines.length) {
    return errorResult(`${shown} has only ${lines.length} lines; offset ${offset} is past the end.`);
  }
  const want = limit ?? DEFAULT_LIMIT;
  const out: string[] = [];
  let chars = 0;
  let end = start;
  for (; end < lines.length && end < start + want; end++) {
    const line = `${String(end + 1).padStart(6)}\t${cutLine(lines[end], MAX_LINE)}`;
    if (chars + line.length > MAX_TEXT_CHARS && out.length > 0) break;
    out.push(line);
    chars += line.length + 1;
  }
  let body = out.join('\n');
  const partial = start > 0 || end < lines.length;
  if (partial) {
    const more = end < lines.length ? ` Continue with offset=${end + 1}.` : '';
    body += `\n\n(Showing lines ${start + 1}–${end} of ${lines.length}.${more})`;
  }
  const summary = `Read ${shown}${note}: lines ${start + 1}–${end} of ${lines.length}`;
  return {
    forModel: dirty ? `(Unsaved editor text of ${shown})\n${body}` : body,
    forUi: `${summary}\n${body}`,
    isError: false,
  };
}

function readImage(bytes: Uint8Array, shown: string, ctx: ToolContext): ToolResult {
  const info = sniffImage(bytes);
  if (!info) return errorResult(`${shown} has an image extension but is not a PNG, JPEG, GIF or WebP image.`);
  const dims = info.width && info.height ? `, ${info.width}×${info.height}` : '';
  const desc = `Image ${shown} (${info.mediaType}${dims}, ${formatBytes(bytes.length)})`;
  if (!ctx.supportsImages) {
    const msg = `${desc}. The current model cannot view images, so only this description is available.`;
    return { forModel: msg, forUi: msg, isError: false };
  }
  if (bytes.length > MAX_IMAGE_BYTES) {
    return errorResult(
      `${desc} is too large to send to the model (limit ${formatBytes(MAX_IMAGE_BYTES)}). Downscale it first, e.g. ` +
        'with ImageMagick in bash.',
    );
  }
  return {
    forModel: [
      { type: 'text', text: desc },
      { type: 'image', mediaType: info.mediaType, dataBase64: Buffer.from(bytes).toString('base64') },
    ],
    forUi: desc,
    isError: false,
  };
}

function readPdf(bytes: Uint8Array, shown: string, pages: string | undefined): ToolResult {
  let all: string[];
  try {
    all = extractPdfPages(bytes);
  } catch (e) {
    return errorResult(`Could not extract text from the PDF ${shown}: ${(e as Error).message}`);
  }
  let wanted: number[];
  try {
    wanted = pages ? parsePageSpec(pages, all.length) : all.map((_, i) => i + 1);
  } catch (e) {
    return errorResult((e as Error).message);
  }
  const parts: string[] = [];
  let chars = 0;
  let last = 0;
  for (const n of wanted) {
    const pageText = all[n - 1].trim() || '(no extractable text on this page — it may be a scanned image)';
    const t = `--- Page ${n} of ${all.length} ---\n${pageText}`;
    if (chars + t.length > MAX_TEXT_CHARS && parts.length > 0) break;
    parts.push(t);
    chars += t.length;
    last = n;
  }
  const more =
    last < wanted[wanted.length - 1]
      ? `\n\n(Stopped after page ${last} to stay within size limits; read further with ` +
        `pages="${last + 1}-${all.length}".)`
      : '';
  const body = parts.join('\n\n') + more;
  return { forModel: body, forUi: `PDF ${shown}: ${all.length} pages\n${body}`, isError: false };
}

function readNotebookFile(text: string, shown: string, ctx: ToolContext): ToolResult {
  try {
    const nb = parseNotebook(text);
    const r = renderNotebook(nb, ctx.supportsImages);
    const head = `Notebook ${shown}: ${nb.cells.length} cells. Edit cells with notebook_edit (by cell_id or index).\n`;
    const blocks = r.blocks.length ? r.blocks : [{ type: 'text' as const, text: '(no cells)' }];
    if (blocks[0].type === 'text') blocks[0] = { type: 'text', text: head + blocks[0].text };
    const onlyText = blocks.every((b) => b.type === 'text');
    return { forModel: onlyText ? head + r.text : blocks, forUi: head + r.text, isError: false };
  } catch (e) {
    return errorResult(`${shown} could not be read as a notebook: ${(e as Error).message}`);
  }
}
