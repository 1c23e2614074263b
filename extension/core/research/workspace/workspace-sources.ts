// The workspace as a research source: the files a run may read beside web pages (Markdown, text, code,
// PDF through read_file's extractor, notebooks as their cells), found by the planner's file list and by
// matching each query's words against the files the glob selection lists (ripgrep's rules: .gitignore
// and the user's excludes honoured). A file is read only when the permission policy allows read_file on
// it — exactly the decision the agent's read_file gets — so protected and secret files are never read,
// and a file outside the workspace asks (through `approve`) or is left out. What a run cites is a
// section: a path and a line range, whose lines are what its claims are checked against.
import * as path from 'node:path';
import { decide, type Policy } from '../../permissions';
import type { WorkspacePort } from '../../ports';
import { listFiles } from '../../tools/util/list-files';
import { parseNotebook, joinSource } from '../../tools/util/notebook';
import { extractPdfPages } from '../../tools/util/pdf';
import { isInside, realPathOf, rootOf } from '../../tools/util/paths';
import { decodeText, splitLines } from '../../tools/util/text';
import { contentWords } from '../verify/words';

/** A part of a workspace file a report may cite: `path` relative to its workspace folder, lines 1-based. */
export interface WorkspaceSection {
  path: string;
  start: number;
  end: number;
  /** The lines start..end, joined: what claims citing this section are checked against. */
  text: string;
  /** How the Sources list names it: the path and the lines. */
  title: string;
}

export interface WorkspaceSources {
  /** Relative paths of the readable kinds of file, for the planner (capped). */
  list(signal: AbortSignal): Promise<string[]>;
  /** The best-matching sections for a query's words, best first. */
  find(query: string, max: number, signal: AbortSignal): Promise<WorkspaceSection[]>;
  /** A named file as one section (a long one: its first lines); a string says why it was not read. */
  read(file: string, signal: AbortSignal): Promise<WorkspaceSection | string>;
}

export interface WorkspaceSourceDeps {
  ws: WorkspacePort;
  rgPath: string | undefined;
  /** The permission policy in force; without one only files inside the workspace folders are read. */
  policy?: () => Policy;
  /** Asks the user about a file the policy asks for (outside the workspace); false or absent: not read. */
  approve?: (absPath: string, reason: string, signal: AbortSignal) => Promise<boolean>;
}

const TEXT_EXT = new Set(
  (
    'md markdown mdx txt text rst adoc asciidoc org tex csv tsv json yaml yml toml ini cfg conf xml html htm ' +
    'ts tsx js jsx mjs cjs py rb go rs java kt kts scala c h cc cpp hpp cs swift php sh bash zsh ps1 sql lua r ' +
    'dart ex exs erl hs ml fs clj vue svelte css scss less proto graphql gradle cmake make dockerfile'
  ).split(' '),
);
const PROSE_EXT = new Set(['md', 'markdown', 'mdx', 'txt', 'text', 'rst', 'adoc', 'asciidoc', 'org', 'pdf', 'ipynb']);
const MAX_FILES = 3000;
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** A file this short is one section; a longer one is cut to the window around its best matches. */
const WHOLE_FILE_LINES = 80;
const WINDOW_LINES = 40;

export function createWorkspaceSources(deps: WorkspaceSourceDeps): WorkspaceSources {
  let listing: Promise<string[]> | undefined;
  const texts = new Map<string, Promise<string[] | string>>();

  const absOf = (rel: string): string => {
    const roots = deps.ws.roots();
    if (path.isAbsolute(rel)) return path.normalize(rel);
    // "folder/…" names a folder of a multi-root workspace; otherwise the first folder.
    const [head, ...rest] = rel.split('/');
    const named = roots.find((r) => path.basename(r) === head && rest.length > 0 && roots.length > 1);
    return named ? path.join(named, ...rest) : path.join(roots[0] ?? '.', rel);
  };
  const relOf = (abs: string): string => {
    const roots = deps.ws.roots();
    const root = rootOf(deps.ws, abs);
    if (!root) return abs;
    const rel = path.relative(root, abs).split(path.sep).join('/');
    return roots.length > 1 ? `${path.basename(root)}/${rel}` : rel;
  };

  /** The file's lines, or why it was not read (the policy's reason). */
  const linesOf = (abs: string, signal: AbortSignal): Promise<string[] | string> => {
    let p = texts.get(abs);
    if (!p) {
      p = readLines(deps, abs, signal).catch((e: unknown) => `could not be read: ${(e as Error).message}`);
      texts.set(abs, p);
    }
    return p;
  };

  const list = (signal: AbortSignal): Promise<string[]> => {
    listing ??= (async () => {
      const out: string[] = [];
      for (const root of deps.ws.roots()) {
        const { files } = await listFiles({ ws: deps.ws, rgPath: deps.rgPath, dir: root, workspaceRoot: root, signal });
        for (const f of files.sort()) if (readableKind(f)) out.push(relOf(f));
        if (out.length >= MAX_FILES) break;
      }
      // Prose first: documents are what a question about "our docs" means; code after.
      return out.sort((a, b) => Number(!isProse(a)) - Number(!isProse(b))).slice(0, MAX_FILES);
    })();
    return listing;
  };

  return {
    list,
    async find(query, max, signal) {
      const words = [...new Set(contentWords(query))];
      if (words.length === 0) return [];
      const scored: Array<{ section: WorkspaceSection; score: number }> = [];
      for (const rel of await list(signal)) {
        if (signal.aborted) break;
        // A cheap look at the name and size first would miss PDFs' words: every listed file is read once.
        const lines = await linesOf(absOf(rel), signal);
        if (typeof lines === 'string') continue;
        const best = bestWindow(lines, words);
        if (best.matched < Math.min(2, words.length)) continue;
        scored.push({ section: section(rel, lines, best.start, best.end), score: best.score });
      }
      return scored
        .sort((a, b) => b.score - a.score)
        .slice(0, max)
        .map((s) => s.section);
    },
    async read(file, signal) {
      const abs = absOf(file.replace(/\\/g, '/'));
      if (!readableKind(abs)) return `${file} is not a kind of file research reads`;
      const lines = await linesOf(abs, signal);
      if (typeof lines === 'string') return `${file} ${lines}`;
      return section(relOf(abs), lines, 1, Math.min(lines.length, WHOLE_FILE_LINES * 2));
    },
  };
}

function ext(file: string): string {
  const base = path.basename(file).toLowerCase();
  return base === 'dockerfile' || base === 'makefile' ? base.replace('file', '') : path.extname(base).slice(1);
}
function readableKind(file: string): boolean {
  const e = ext(file);
  return TEXT_EXT.has(e) || e === 'pdf' || e === 'ipynb' || e === 'docker' || e === 'make';
}
function isProse(file: string): boolean {
  return PROSE_EXT.has(ext(file));
}

function section(rel: string, lines: string[], start: number, end: number): WorkspaceSection {
  const text = lines.slice(start - 1, end).join('\n');
  return { path: rel, start, end, text, title: `${rel} (lines ${start}–${end})` };
}

/**
 * The window of lines that holds most of the query's words: its first and last line (1-based), how
 * many distinct words it holds, and a score (distinct words first, then hits). Short files are whole.
 */
export function bestWindow(
  lines: readonly string[],
  words: readonly string[],
): { start: number; end: number; matched: number; score: number } {
  const want = new Set(words);
  const perLine = lines.map((l) => new Set(contentWords(l).filter((w) => want.has(w))));
  const scoreOf = (a: number, b: number) => {
    const seen = new Set<string>();
    let hits = 0;
    for (let i = a; i < b; i++) {
      hits += perLine[i].size;
      for (const w of perLine[i]) seen.add(w);
    }
    return { matched: seen.size, score: seen.size * 100 + hits };
  };
  if (lines.length <= WHOLE_FILE_LINES) {
    const s = scoreOf(0, lines.length);
    return { start: 1, end: Math.max(1, lines.length), ...s };
  }
  let best = { start: 1, end: WINDOW_LINES, matched: 0, score: -1 };
  // Windows start at every line with a hit, a few lines before it (the heading above a paragraph).
  for (let i = 0; i < lines.length; i++) {
    if (perLine[i].size === 0) continue;
    const a = Math.max(0, i - 3);
    const b = Math.min(lines.length, a + WINDOW_LINES);
    const s = scoreOf(a, b);
    if (s.score > best.score) best = { start: a + 1, end: b, ...s };
  }
  // Trim blank lines at both ends so the cited range is the text itself.
  while (best.end > best.start && !lines[best.end - 1].trim()) best.end--;
  while (best.start < best.end && !lines[best.start - 1].trim()) best.start++;
  return best.score < 0 ? { ...best, matched: 0, score: 0 } : best;
}

/** Reads a file as lines after the policy's check: PDFs as their text, notebooks as their cells. */
async function readLines(deps: WorkspaceSourceDeps, abs: string, signal: AbortSignal): Promise<string[] | string> {
  const real = await realPathOf(deps.ws, abs);
  const inside = deps.ws.roots().some((r) => isInside(real, r));
  let asks: string | undefined;
  if (deps.policy) {
    const d = decide({ tool: 'read_file', kind: 'read', input: { file_path: abs }, realPaths: [real] }, deps.policy());
    // Protected and secret files are refused here, before anything about them is asked or looked at.
    if (d.decision === 'deny') return `was not read: ${d.reason}`;
    if (d.decision === 'ask') asks = d.reason;
  } else if (!inside) {
    return 'was not read: it is outside the workspace';
  }
  const st = await deps.ws.stat(abs);
  if (st?.type !== 'file') return 'was not found';
  // Outside the workspace: the user is asked on the same approval card read_file gets; no card, no read.
  if (asks !== undefined) {
    if (!deps.approve) return `was not read: ${asks} (reading it needs your approval)`;
    if (!(await deps.approve(abs, asks, signal))) return `was not read: you declined (${asks})`;
  }
  if (st.size > MAX_FILE_BYTES) return 'is too large to read';
  const bytes = await deps.ws.readFile(abs, { maxBytes: MAX_FILE_BYTES, signal });
  const e = ext(abs);
  if (e === 'pdf') {
    // One line per extracted text line; a page break is an empty line, so line numbers stay stable.
    return extractPdfPages(bytes).flatMap((page) => [...splitLines(page), '']);
  }
  const decoded = decodeText(bytes);
  if (decoded.kind !== 'text') return `was not read: ${decoded.reason}`;
  if (e === 'ipynb') {
    try {
      // Cells one after another: the lines of the notebook's text, as read_file shows them.
      return parseNotebook(decoded.text).cells.flatMap((c, k) => [
        `# Cell ${k + 1} (${c.cell_type})`,
        ...splitLines(joinSource(c.source)),
        '',
      ]);
    } catch (err) {
      return `was not read: ${(err as Error).message}`;
    }
  }
  return splitLines(decoded.text);
}
