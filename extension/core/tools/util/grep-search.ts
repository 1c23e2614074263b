// The two grep back ends: ripgrep (VS Code's bundled binary) and a JavaScript fallback that
// selects the same files and reports the same lines, so the tool's output does not depend on
// which one ran. Both return structured results; the tool formats them.
import * as path from 'node:path';
import type { WorkspacePort } from '../../ports';
import { compileGlob } from '../../paths/globs';
import { FILE_TYPES } from './grep-types';
import { RG_BASE_FLAGS, runRipgrep } from './ripgrep';
import { decodeText } from './text';
import { Overrides, walkFiles } from './walk';

export type GrepMode = 'content' | 'files_with_matches' | 'count';

export interface GrepParams {
  pattern: string;
  /** Absolute file or folder to search. */
  target: string;
  targetIsFile: boolean;
  workspaceRoot?: string;
  glob?: string;
  type?: string;
  caseInsensitive: boolean;
  multiline: boolean;
  mode: GrepMode;
  before: number;
  after: number;
  excludeGlobs: string[];
}

export interface GrepLine {
  line: number;
  text: string;
  match: boolean;
}

export interface GrepFileResult {
  /** Absolute path. */
  file: string;
  /** Matching lines (count mode and content mode). */
  count: number;
  lines: GrepLine[];
}

export interface GrepOutcome {
  files: GrepFileResult[];
  truncated: boolean;
  errors: string[];
}

function byPath(a: GrepFileResult, b: GrepFileResult): number {
  return a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}

function overrideGlobs(p: GrepParams): string[] {
  return [...(p.glob ? [p.glob] : []), ...p.excludeGlobs.map((g) => `!${g}`)];
}

export function ripgrepArgs(p: GrepParams): { cwd: string; args: string[] } {
  const args = [...RG_BASE_FLAGS, '--null'];
  if (p.caseInsensitive) args.push('-i');
  if (p.multiline) args.push('-U', '--multiline-dotall');
  if (p.type) args.push('--type', p.type);
  for (const g of overrideGlobs(p)) args.push('--glob', g);
  if (p.mode === 'files_with_matches') args.push('--files-with-matches');
  else if (p.mode === 'count') args.push('--count');
  else args.push('--line-number', '--no-heading', '--with-filename', '-A', String(p.after), '-B', String(p.before));
  const cwd = p.targetIsFile ? path.dirname(p.target) : p.target;
  args.push('-e', p.pattern, '--', p.targetIsFile ? path.basename(p.target) : '.');
  return { cwd, args };
}

/** Parses rg's --null output for the given mode. Exported for the parity tests. */
export function parseRipgrepOutput(stdout: string, mode: GrepMode, cwd: string): GrepFileResult[] {
  // rg prints "./rel" for the "." target: a plain concatenation is much cheaper than path.join on 50k lines.
  const prefix = cwd.endsWith(path.sep) ? cwd : cwd + path.sep;
  const abs = (p: string) =>
    p.startsWith('./') && !p.includes('/../')
      ? prefix + (path.sep === '/' ? p.slice(2) : p.slice(2).split('/').join(path.sep))
      : path.join(cwd, p);
  const files = new Map<string, GrepFileResult>();
  const get = (f: string) => {
    let r = files.get(f);
    if (!r) {
      r = { file: f, count: 0, lines: [] };
      files.set(f, r);
    }
    return r;
  };
  if (mode === 'files_with_matches') {
    for (const f of stdout.split('\0')) if (f.trim() !== '') get(abs(f.replace(/^\n/, '')));
  } else if (mode === 'count') {
    for (const line of stdout.split('\n')) {
      const i = line.indexOf('\0');
      if (i > 0) get(abs(line.slice(0, i))).count = Number(line.slice(i + 1));
    }
  } else {
    for (const line of stdout.split('\n')) {
      const i = line.indexOf('\0');
      if (i <= 0) continue;
      const m = /^(\d+)([:-])/.exec(line.slice(i + 1));
      if (!m) continue;
      const r = get(abs(line.slice(0, i)));
      const isMatch = m[2] === ':';
      r.lines.push({ line: Number(m[1]), text: line.slice(i + 1 + m[0].length).replace(/\r$/, ''), match: isMatch });
      if (isMatch) r.count++;
    }
  }
  return [...files.values()].sort(byPath);
}

export async function grepWithRipgrep(rg: string, p: GrepParams, signal?: AbortSignal): Promise<GrepOutcome> {
  const { cwd, args } = ripgrepArgs(p);
  const run = await runRipgrep(rg, args, cwd, signal);
  const errors = run.exitCode === 2 ? run.stderr.split('\n').filter(Boolean).slice(0, 5) : [];
  if (run.exitCode === 2 && run.stdout === '' && errors.length) throw new Error(errors.join('\n'));
  return { files: parseRipgrepOutput(run.stdout, p.mode, cwd), truncated: run.truncated, errors };
}

/** Rust regex syntax → JavaScript where they differ in common patterns. */
export function toJsRegex(
  pattern: string,
  p: Pick<GrepParams, 'caseInsensitive' | 'multiline'>,
  global: boolean,
): RegExp {
  let src = pattern;
  let flags = p.caseInsensitive ? 'i' : '';
  const inline = /^\(\?([imsxU]+)\)/.exec(src);
  if (inline) {
    src = src.slice(inline[0].length);
    if (inline[1].includes('i') && !flags.includes('i')) flags += 'i';
    if (inline[1].includes('s')) flags += 's';
  }
  src = src
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$');
  if (p.multiline && !flags.includes('s')) flags += 's';
  if (p.multiline) flags += 'm';
  if (global) flags += 'g';
  try {
    return new RegExp(src, `${flags}u`);
  } catch {
    return new RegExp(src, flags);
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineAt(starts: number[], idx: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= idx) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Searches one file's text; returns undefined when nothing matched. */
export function searchText(file: string, text: string, p: GrepParams, re: RegExp): GrepFileResult | undefined {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const matched = new Set<number>();
  if (p.multiline) {
    const starts = lineStarts(text);
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const a = lineAt(starts, m.index);
      const b = m[0].length > 0 ? lineAt(starts, m.index + m[0].length - 1) : a;
      for (let l = a; l <= b; l++) matched.add(l);
      if (m[0].length === 0) re.lastIndex++;
    }
  } else {
    for (let i = 0; i < lines.length; i++) if (re.test(lines[i])) matched.add(i);
  }
  if (matched.size === 0) return undefined;
  const r: GrepFileResult = { file, count: matched.size, lines: [] };
  if (p.mode !== 'content') return r;
  const shown = new Set<number>();
  for (const l of matched)
    for (let k = Math.max(0, l - p.before); k <= Math.min(lines.length - 1, l + p.after); k++) shown.add(k);
  r.lines = [...shown]
    .sort((a, b) => a - b)
    .map((k) => ({ line: k + 1, text: lines[k].replace(/\r$/, ''), match: matched.has(k) }));
  return r;
}

/** The slower JavaScript search with ripgrep's file selection (see walk.ts). */
export async function grepWithJs(ws: WorkspacePort, p: GrepParams, signal?: AbortSignal): Promise<GrepOutcome> {
  if (p.type && !FILE_TYPES[p.type]) {
    throw new Error(
      `unknown file type "${p.type}". Known types: ${Object.keys(FILE_TYPES).join(', ')}. Or use glob, e.g. "*.ext".`,
    );
  }
  const re = toJsRegex(p.pattern, p, p.multiline);
  const candidates: string[] = [];
  if (p.targetIsFile) candidates.push(p.target);
  else {
    const typeRes = p.type ? FILE_TYPES[p.type].map((g) => compileGlob(g)) : undefined;
    await walkFiles({
      ws,
      dir: p.target,
      workspaceRoot: p.workspaceRoot,
      overrides: new Overrides(['!.git', ...overrideGlobs(p)]),
      fileFilter: typeRes ? (rel) => typeRes.some((t) => t.test(rel.slice(rel.lastIndexOf('/') + 1))) : undefined,
      signal,
      onFile: (abs) => {
        candidates.push(abs);
      },
    });
  }
  const files: GrepFileResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < candidates.length && !signal?.aborted) {
      const f = candidates[next++];
      let bytes: Uint8Array;
      try {
        bytes = await ws.readFile(f);
      } catch {
        continue;
      }
      // Like rg: a NUL byte marks a binary file, which a recursive search skips.
      if (!p.targetIsFile && bytes.indexOf(0) !== -1) continue;
      const d = decodeText(bytes);
      if (d.kind !== 'text') continue;
      const r = searchText(f, d.text, p, re);
      if (r) files.push(r);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return { files: files.sort(byPath), truncated: false, errors: [] };
}
