// Rules files: the instructions a project and its user give every request — AGENTS.md (Codex, Jules,
// Cursor…), CLAUDE.md (Claude Code, with its `@path` imports), .sextant/rules/*.md, the Jarvis seed's
// SOUL.md and TOOLS.md, and the user's own global file. Read as they are, in a fixed order, so the
// system prompt they end up in stays byte-identical between requests until a file changes.
import * as path from 'node:path';
import { estimateTextTokens } from '../util/tokens';
import { isInside, type ProjectFiles } from './project-files';

/** Characters of one rules file that reach the prompt (≈ 5,000 tokens); the rest is cut with a note. */
export const RULES_FILE_CAP_CHARS = 20_000;
/** A file larger than this is not read at all (a generated file named like a rules file). */
const RULES_FILE_MAX_BYTES = 1_000_000;
/** How deep `@path` imports may nest (Claude Code's limit too). */
const IMPORT_DEPTH = 5;

/** Names of the rules files looked for at each workspace root, in prompt order. */
export const ROOT_RULES_FILES = ['AGENTS.md', 'CLAUDE.md', '.claude/CLAUDE.md', 'SOUL.md', 'TOOLS.md'] as const;
/** Names that make a subfolder's rules (read when the agent touches a file below it). */
export const NESTED_RULES_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;
/** The user's own rules, read in every workspace: Sextant's, and Claude Code's for its users. */
export const USER_RULES_FILES = ['.sextant/AGENTS.md', '.claude/CLAUDE.md'] as const;
/** The memories kept (core/extensions/memory-file.ts): the user's and each root's, after the other rules. */
export const MEMORY_RULES_FILE = '.sextant/memory.md';

export interface RulesFile {
  /** Absolute path. */
  path: string;
  /** How the prompt and the context popover name it: workspace-relative, or `~/…`. */
  label: string;
  scope: 'user' | 'workspace' | 'nested' | 'import';
  /** What reaches the prompt: the file's text, cut at the cap with a note saying so. */
  text: string;
  /** Estimated tokens of `text`. */
  tokens: number;
  /** Set when the file was cut (or, over the read limit, left out): its full size in characters/bytes. */
  cutFrom?: number;
  /** Something the user should know: an import refused, a file too large, a duplicate skipped. */
  note?: string;
  /** Not read because the safe-read rule refused it (a link out of the workspace, a key): `note` says why. */
  refused?: boolean;
}

/** Every rules file in effect for the workspace, in the order they appear in the prompt. */
export async function discoverRules(files: ProjectFiles): Promise<RulesFile[]> {
  const out: RulesFile[] = [];
  const seenTexts = new Map<string, string>();
  const home = files.home();
  const roots = files.roots();
  const label = (abs: string) => labelOf(abs, roots, home);
  // Every place a rules file may be is read at once (each read is a few awaited file operations, ~10
  // places: one after the other they were most of the system prompt's time on a first request); the
  // files are then taken in prompt order, so the result is the same as reading them one by one.
  const reads = new Map<string, ReturnType<ProjectFiles['readText']>>();
  const readOnce = (abs: string) => {
    let r = reads.get(abs);
    if (!r) {
      r = files.readText(abs, RULES_FILE_MAX_BYTES);
      // Awaited below in order; one that fails before its turn is not an unhandled rejection meanwhile.
      r.catch(() => undefined);
      reads.set(abs, r);
    }
    return r;
  };
  const places = (root: string) => [
    ...ROOT_RULES_FILES.map((name) => path.join(root, name)),
    path.join(root, MEMORY_RULES_FILE),
  ];
  for (const abs of home ? [...USER_RULES_FILES, MEMORY_RULES_FILE].map((n) => path.join(home, n)) : []) readOnce(abs);
  for (const abs of roots.flatMap(places)) readOnce(abs);
  const ruleDirs = new Map(roots.map((root) => [root, files.list(path.join(root, '.sextant', 'rules'))]));
  for (const listed of ruleDirs.values()) listed.catch(() => undefined);
  const add = async (abs: string, scope: RulesFile['scope'], allowed: string[], depth: number) => {
    const read = await readOnce(abs);
    if (!read) return;
    if (read.refused) {
      // Named, never read: the user sees why (a notice in the chat, the context popover).
      out.push({ path: abs, label: label(abs), scope, text: '', tokens: 0, note: read.refused, refused: true });
      return;
    }
    if (read.text === undefined) {
      out.push({
        path: abs,
        label: label(abs),
        scope,
        text: '',
        tokens: 0,
        cutFrom: read.size,
        note: 'too large to read',
      });
      return;
    }
    const same = seenTexts.get(read.text.trim());
    // CLAUDE.md is often a copy of (or a link to) AGENTS.md: the model needs it once.
    if (same !== undefined) return;
    seenTexts.set(read.text.trim(), label(abs));
    out.push(capped(abs, label(abs), scope, read.text));
    if (depth >= IMPORT_DEPTH) return;
    for (const ref of importsIn(read.text)) {
      const target = resolveImport(ref, path.dirname(abs), home);
      if (!target) continue;
      if (!allowed.some((root) => isInside(root, target))) {
        out.push({
          path: target,
          label: label(target),
          scope: 'import',
          text: '',
          tokens: 0,
          note: `not imported by ${label(abs)}: outside the folders its rules may read`,
        });
        continue;
      }
      if (out.some((f) => f.path === target)) continue;
      await add(target, 'import', allowed, depth + 1);
    }
  };
  if (home) {
    // The user's files may import from anywhere in their home; a workspace's only from the workspace,
    // so a cloned repository cannot pull ~/.ssh into the prompt.
    for (const name of [...USER_RULES_FILES, MEMORY_RULES_FILE]) await add(path.join(home, name), 'user', [home], 0);
  }
  for (const root of roots) {
    for (const name of ROOT_RULES_FILES.slice(0, 3)) await add(path.join(root, name), 'workspace', roots, 0);
    const rulesDir = path.join(root, '.sextant', 'rules');
    const entries = (await (ruleDirs.get(root) ?? files.list(rulesDir)))
      .filter((e) => e.type !== 'directory' && e.name.endsWith('.md'))
      .map((e) => path.join(rulesDir, e.name))
      .sort();
    for (const abs of entries) readOnce(abs);
    for (const abs of entries) await add(abs, 'workspace', roots, 0);
    for (const name of ROOT_RULES_FILES.slice(3)) await add(path.join(root, name), 'workspace', roots, 0);
    await add(path.join(root, MEMORY_RULES_FILE), 'workspace', roots, 0);
  }
  return out;
}

/**
 * Rules of the subfolders between a workspace root and `absPath` (AGENTS.md / CLAUDE.md in `src/ui/`
 * for `src/ui/button.ts`) not given yet; each path is added to `given`. The root's own are in the prompt.
 */
export async function nestedRulesFor(files: ProjectFiles, absPath: string, given: Set<string>): Promise<RulesFile[]> {
  const roots = files.roots();
  const root = roots.filter((r) => isInside(r, absPath)).sort((a, b) => b.length - a.length)[0];
  if (!root) return [];
  const dirs: string[] = [];
  for (let dir = path.dirname(absPath); dir !== root && isInside(root, dir); dir = path.dirname(dir)) dirs.push(dir);
  const out: RulesFile[] = [];
  for (const dir of dirs.reverse()) {
    for (const name of NESTED_RULES_FILES) {
      const abs = path.join(dir, name);
      if (given.has(abs)) continue;
      given.add(abs);
      const read = await files.readText(abs, RULES_FILE_MAX_BYTES);
      if (!read?.text) continue;
      out.push(capped(abs, labelOf(abs, roots, files.home()), 'nested', read.text));
    }
  }
  return out;
}

function capped(abs: string, label: string, scope: RulesFile['scope'], full: string): RulesFile {
  if (full.length <= RULES_FILE_CAP_CHARS)
    return { path: abs, label, scope, text: full, tokens: estimateTextTokens(full) };
  const text =
    `${full.slice(0, RULES_FILE_CAP_CHARS)}\n\n[Sextant: ${label} was cut here — it has ` +
    `${full.length.toLocaleString('en-US')} characters and only the first ` +
    `${RULES_FILE_CAP_CHARS.toLocaleString('en-US')} are given. Ask the user if the rest matters.]`;
  return { path: abs, label, scope, text, tokens: estimateTextTokens(text), cutFrom: full.length };
}

/**
 * `@path` references in a rules file, Claude Code's import syntax: a token starting with `@` after a
 * space or at a line start, outside code spans and fenced blocks. Only ones that name an existing file
 * are imported, so `@someone` in prose or `@scope/package` costs nothing.
 */
export function importsIn(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, ' ');
    for (const m of prose.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/~]+)/g)) {
      const ref = (m[1] ?? '').replace(/[.,;:)]+$/, '');
      if (ref && !out.includes(ref)) out.push(ref);
    }
  }
  return out;
}

function resolveImport(ref: string, fromDir: string, home: string | undefined): string | undefined {
  if (ref.startsWith('~/')) return home ? path.join(home, ref.slice(2)) : undefined;
  return path.resolve(fromDir, ref);
}

/** `AGENTS.md`, `src/ui/AGENTS.md`, `web: AGENTS.md` (a second root), or `~/.claude/CLAUDE.md`. */
export function labelOf(abs: string, roots: string[], home: string | undefined): string {
  const root = roots.filter((r) => isInside(r, abs)).sort((a, b) => b.length - a.length)[0];
  if (root) {
    const rel = path.relative(root, abs).split(path.sep).join('/');
    return roots.length > 1 ? `${path.basename(root)}: ${rel}` : rel;
  }
  if (home && isInside(home, abs)) return `~/${path.relative(home, abs).split(path.sep).join('/')}`;
  return abs;
}
