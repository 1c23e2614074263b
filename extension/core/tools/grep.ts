// grep: content search with ripgrep (VS Code's bundled binary), or a slower JS fallback that
// gives the same results. Output is grouped by file, deterministic, and capped with paging.
import * as z from 'zod';
import { defineTool, errorResult, type ToolContext } from './types';
import type { WorkspacePort } from '../ports';
import { secretFileOf } from '../permissions/paths';
import { displayPath, resolvePath, rootOf } from './util/paths';
import { cutLine, plural } from './util/cap';
import { grepWithJs, grepWithRipgrep, type GrepFileResult, type GrepMode, type GrepParams } from './util/grep-search';

const DEFAULT_LIMIT: Record<GrepMode, number> = { content: 400, files_with_matches: 250, count: 250 };
export const FALLBACK_NOTE =
  '(ripgrep was not found, so the slower built-in search was used; the results are the same.)';

const input = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Regular expression (ripgrep/Rust syntax). Escape literal braces and dots, e.g. "interface\\\\{\\\\}" or ' +
        '"foo\\\\.bar".',
    ),
  path: z
    .string()
    .optional()
    .describe('File or folder to search (absolute or workspace-relative). Default: the workspace root.'),
  glob: z
    .string()
    .optional()
    .describe(
      'Only files matching this glob, relative to path, e.g. "*.ts", "*.{ts,tsx}", "src/**/*.py". Prefix with ! to ' +
        'exclude.',
    ),
  type: z
    .string()
    .optional()
    .describe(
      'Only files of this ripgrep type, e.g. "ts", "py", "rust", "go", "java", "md". More efficient than glob for ' +
        'standard types.',
    ),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      '"files_with_matches" (default): paths, newest first; "content": matching lines; "count": matching lines per ' +
        'file.',
    ),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-n': z.boolean().optional().describe('Show line numbers in content mode (default true).'),
  '-A': z.number().int().min(0).max(50).optional().describe('Lines of context after each match (content mode).'),
  '-B': z.number().int().min(0).max(50).optional().describe('Lines of context before each match (content mode).'),
  '-C': z
    .number()
    .int()
    .min(0)
    .max(50)
    .optional()
    .describe('Lines of context before and after each match (content mode).'),
  multiline: z.boolean().optional().describe('Let the pattern span lines ("." matches newlines too). Default false.'),
  head_limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Show at most this many entries (lines in content mode, files otherwise).'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Skip this many entries first (for paging through many results).'),
});
type Input = z.infer<typeof input>;

export const grepTool = defineTool({
  name: 'grep',
  kind: 'read',
  permission: { subject: 'path', folder: true, paths: (i) => [i.path] },
  modes: ['agent', 'plan'],
  description: [
    "Searches file contents with ripgrep regular expressions. Respects .gitignore and the editor's excluded files; " +
      'searches hidden files but never .git.',
    'Modes: files_with_matches (default; paths, newest first), content (matching lines with line numbers, optional',
    '-A/-B/-C context), count.',
    'Filter with glob ("*.ts", "**/*.{ts,tsx}") or type ("ts", "py"). Use -i for case-insensitive and multiline for',
    'patterns across lines.',
    'Results are capped; use head_limit and offset to page. Always prefer this tool to running grep or rg in bash.',
  ].join(' '),
  input,
  subject: (i) => i.pattern,
  async execute(i: Input, ctx) {
    const ws = ctx.ports.workspace;
    const target = await resolvePath(ws, i.path ?? '.');
    const st = await ws.stat(target);
    if (!st) return errorResult(`Path not found: ${displayPath(ws, target)}.`);
    const mode: GrepMode = i.output_mode ?? 'files_with_matches';
    const ctxLines = i['-C'] ?? 0;
    const params: GrepParams = {
      pattern: i.pattern,
      target,
      targetIsFile: st.type !== 'directory',
      workspaceRoot: rootOf(ws, target),
      glob: i.glob,
      type: i.type,
      caseInsensitive: i['-i'] ?? false,
      multiline: i.multiline ?? false,
      mode,
      before: i['-B'] ?? ctxLines,
      after: i['-A'] ?? ctxLines,
      excludeGlobs: ws.excludeGlobs(),
    };
    const rg = ctx.ports.search.ripgrepPath();
    let files: GrepFileResult[];
    let notes: string[] = [];
    try {
      const out = rg ? await grepWithRipgrep(rg, params, ctx.signal) : await grepWithJs(ws, params, ctx.signal);
      files = out.files;
      if (out.truncated)
        notes.push('(The search produced too much output and was stopped early; narrow it with path, glob or type.)');
      if (out.errors.length) notes.push(`(Some files could not be searched: ${out.errors.join('; ')})`);
    } catch (e) {
      const msg = (e as Error).message;
      const hint = /regex|parse/i.test(msg)
        ? '\nCheck the pattern: it is a regular expression, so escape special characters such as ( ) [ ] { } . * + ?'
        : '';
      return errorResult(`grep failed: ${msg}${hint}`);
    }
    if (ctx.signal.aborted) return errorResult('grep was aborted.');
    // A search shows contents: never of a file read_file would refuse (a read deny rule, a secret location).
    const refused = await refusedFiles(files, ctx);
    if (refused.length) {
      const hidden = new Set(refused);
      files = files.filter((f) => !hidden.has(f.file));
      const named = refused.slice(0, 5).map((f) => displayPath(ws, f));
      const more = refused.length > 5 ? ` and ${refused.length - 5} more` : '';
      notes.push(`(Matches in ${named.join(', ')}${more} are not shown: the read rules refuse those files.)`);
    }
    // A search of a folder never shows a .env file's lines unasked: read_file would ask for them. Named
    // here, so the model can read one with read_file (which asks the user) when it matters.
    const secretFiles = await askedSecretFiles(files, target, ctx);
    if (secretFiles.length) {
      const hidden = new Set(secretFiles);
      files = files.filter((f) => !hidden.has(f.file));
      const named = secretFiles.slice(0, 5).map((f) => displayPath(ws, f));
      const more = secretFiles.length > 5 ? ` and ${secretFiles.length - 5} more` : '';
      notes.push(
        `(Matches in ${named.join(', ')}${more} are not shown: .env files hold secrets, and reading one asks the ` +
          'user; use read_file on it if it matters.)',
      );
    }
    if (!rg) notes = [FALLBACK_NOTE, ...notes];
    const body = await format(files, mode, i, ctx.ports.workspace);
    const text = [body, ...notes].filter(Boolean).join('\n\n');
    return { forModel: text, forUi: text, isError: false };
  },
});

/** The files among the results that read_file would be refused (judged side by side). */
async function refusedFiles(files: GrepFileResult[], ctx: ToolContext): Promise<string[]> {
  const denied = ctx.readDenied;
  if (!denied) return [];
  const verdicts = await Promise.all(
    files.map(async (f) => ((await denied(f.file).catch(() => 'error')) ? f.file : '')),
  );
  return verdicts.filter(Boolean);
}

/**
 * The .env files (and kin) among a folder search's results that read_file would not read unasked. A
 * search of the file itself was judged (and asked for) as the call's own path.
 */
async function askedSecretFiles(files: GrepFileResult[], target: string, ctx: ToolContext): Promise<string[]> {
  const candidates = files.filter((f) => f.file !== target && secretFileOf(f.file));
  const verdicts = await Promise.all(
    candidates.map(async (f) => ((await ctx.mayRead?.(f.file).catch(() => false)) ? '' : f.file)),
  );
  return verdicts.filter(Boolean);
}

async function format(files: GrepFileResult[], mode: GrepMode, i: Input, ws: WorkspacePort): Promise<string> {
  const limit = i.head_limit ?? DEFAULT_LIMIT[mode];
  const offset = i.offset ?? 0;
  if (files.length === 0) return 'No matches found.';
  const pageNote = (total: number, unit: string) => {
    const end = Math.min(total, offset + limit);
    if (offset === 0 && end === total) return '';
    const more = end < total ? ` Use offset=${end} for more, or narrow the search.` : '';
    return `\n\n(Showing ${unit} ${offset + 1}–${end} of ${total}.${more})`;
  };
  if (mode === 'files_with_matches') {
    await sortNewestFirst(files, ws);
    const page = files.slice(offset, offset + limit).map((f) => displayPath(ws, f.file));
    return `Found ${plural(files.length, 'file')}\n${page.join('\n')}${pageNote(files.length, 'files')}`;
  }
  if (mode === 'count') {
    const total = files.reduce((n, f) => n + f.count, 0);
    const page = files.slice(offset, offset + limit).map((f) => `${displayPath(ws, f.file)}:${f.count}`);
    const head = `${plural(total, 'matching line')} in ${plural(files.length, 'file')}`;
    return `${head}\n${page.join('\n')}${pageNote(files.length, 'files')}`;
  }
  const numbers = i['-n'] ?? true;
  const withContext = (i['-A'] ?? i['-C'] ?? 0) > 0 || (i['-B'] ?? i['-C'] ?? 0) > 0;
  const rows = files.flatMap((f) => f.lines.map((l) => ({ file: f.file, ...l })));
  const page = rows.slice(offset, offset + limit);
  const out: string[] = [];
  let prev: (typeof rows)[number] | undefined;
  for (const r of page) {
    if (r.file !== prev?.file) {
      if (prev) out.push('');
      out.push(displayPath(ws, r.file));
    } else if (withContext && r.line > prev.line + 1) out.push('--');
    const t = cutLine(r.text, 500);
    out.push(numbers ? `${r.line}${r.match ? ':' : '-'}${t}` : t);
    prev = r;
  }
  const matches = files.reduce((n, f) => n + f.count, 0);
  const head = `${plural(matches, 'matching line')} in ${plural(files.length, 'file')}`;
  return `${head}\n${out.join('\n')}${pageNote(rows.length, 'lines')}`;
}

/** Newest first, like Claude Code; for very many files, path order (stat-ing them all costs more than it helps). */
async function sortNewestFirst(files: GrepFileResult[], ws: WorkspacePort): Promise<void> {
  if (files.length > 2000) return;
  const mtimes = new Map<string, number>();
  await Promise.all(files.map(async (f) => mtimes.set(f.file, (await ws.stat(f.file))?.mtimeMs ?? 0)));
  files.sort(
    (a, b) => (mtimes.get(b.file) ?? 0) - (mtimes.get(a.file) ?? 0) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
}
