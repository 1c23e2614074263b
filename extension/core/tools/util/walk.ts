// A JavaScript file walker with ripgrep's filtering rules, for when no rg binary is available:
// --glob overrides first (last match wins), then .gitignore/.ignore/.rgignore files from the
// workspace root down (deeper files win), symlinks not followed, `.git` never entered.
import * as path from 'node:path';
import type { WorkspacePort } from '../../ports';
import { compileGitignoreLine, matchRules, parseGitignore, type GitignoreRule } from '../../paths/globs';

interface Level {
  base: string;
  rules: GitignoreRule[];
}

const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'];

async function readIgnoreLevel(ws: WorkspacePort, dir: string, extra?: string): Promise<Level | undefined> {
  const rules: GitignoreRule[] = [];
  const files = extra ? [extra, ...IGNORE_FILES] : IGNORE_FILES;
  for (const name of files) {
    try {
      const bytes = await ws.readFile(path.join(dir, name));
      rules.push(...parseGitignore(Buffer.from(bytes).toString('utf8')));
    } catch {
      /* no such file */
    }
  }
  return rules.length ? { base: dir, rules } : undefined;
}

/** ripgrep-style --glob overrides: plain globs whitelist, `!glob` ignores, the last match wins. */
export class Overrides {
  private readonly rules: GitignoreRule[] = [];
  private readonly hasWhitelist: boolean;
  constructor(globs: string[], caseInsensitive = false) {
    for (const g of globs) {
      // In overrides the sense is inverted relative to .gitignore: a plain glob selects.
      const inverted = g.startsWith('!') ? g.slice(1) : `!${g}`;
      const r = compileGitignoreLine(inverted, caseInsensitive);
      if (r) this.rules.push(r);
    }
    this.hasWhitelist = this.rules.some((r) => r.negate);
  }
  match(rel: string, isDir: boolean): 'ignore' | 'whitelist' | undefined {
    const m = matchRules(this.rules, rel, isDir);
    if (m) return m;
    return this.hasWhitelist && !isDir ? 'ignore' : undefined;
  }
}

export interface WalkOptions {
  ws: WorkspacePort;
  /** Absolute folder to walk. */
  dir: string;
  /** The workspace root: ignore files between it and `dir` apply too. */
  workspaceRoot?: string;
  overrides?: Overrides;
  /**
   * Extra test for files the overrides did not decide (ripgrep's --type): gets the path relative
   * to `dir`. Like rg, a file whitelisted by an override skips it.
   */
  fileFilter?: (rel: string) => boolean;
  /** Whether .gitignore & co. are honoured (default true). */
  respectIgnoreFiles?: boolean;
  signal?: AbortSignal;
  /** Called for every file that passes. */
  onFile(abs: string, rel: string): void;
}

/** Walks `dir`, calling onFile for each selected file; resolves when done. */
export async function walkFiles(opts: WalkOptions): Promise<void> {
  const { ws, dir } = opts;
  const respect = opts.respectIgnoreFiles !== false;
  const parentLevels: Level[] = [];
  if (respect) {
    const root = opts.workspaceRoot && isUnder(dir, opts.workspaceRoot) ? opts.workspaceRoot : dir;
    const chain: string[] = [];
    for (let cur = path.dirname(dir); isUnder(cur, root) && cur !== dir; cur = path.dirname(cur)) {
      chain.unshift(cur);
      if (cur === root) break;
    }
    for (const d of chain) {
      const lvl = await readIgnoreLevel(ws, d, d === root ? '.git/info/exclude' : undefined);
      if (lvl) parentLevels.push(lvl);
    }
  }
  const visit = async (abs: string, levels: Level[]): Promise<void> => {
    if (opts.signal?.aborted) return;
    let here = levels;
    if (respect) {
      const lvl = await readIgnoreLevel(ws, abs, abs === opts.workspaceRoot ? '.git/info/exclude' : undefined);
      if (lvl) here = [...levels, lvl];
    }
    let entries: Array<{ name: string; type: string }>;
    try {
      entries = await ws.readDir(abs);
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      if (e.type !== 'file' && e.type !== 'directory') continue;
      const isDir = e.type === 'directory';
      if (isDir && e.name === '.git') continue;
      const childAbs = path.join(abs, e.name);
      const rel = toSlash(path.relative(dir, childAbs));
      const verdict = selected(rel, childAbs, isDir, here, opts.overrides);
      if (verdict === 'skip') continue;
      if (!isDir && verdict === 'default' && opts.fileFilter && !opts.fileFilter(rel)) continue;
      if (isDir) subdirs.push(childAbs);
      else opts.onFile(childAbs, rel);
    }
    // A few folders at a time: fast on SSDs without opening thousands of handles.
    for (let i = 0; i < subdirs.length; i += 8) {
      await Promise.all(subdirs.slice(i, i + 8).map((d) => visit(d, here)));
    }
  };
  await visit(dir, parentLevels);
}

function selected(
  rel: string,
  abs: string,
  isDir: boolean,
  levels: Level[],
  overrides?: Overrides,
): 'override' | 'skip' | 'default' {
  const o = overrides?.match(rel, isDir);
  if (o) return o === 'whitelist' ? 'override' : 'skip';
  for (let i = levels.length - 1; i >= 0; i--) {
    const lvl = levels[i];
    const m = matchRules(lvl.rules, toSlash(path.relative(lvl.base, abs)), isDir);
    if (m) return m === 'whitelist' ? 'default' : 'skip';
  }
  return 'default';
}

function isUnder(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function toSlash(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}
