// ls: a folder listing (optionally a shallow tree) with types and sizes, skipping the usual noise.
import * as path from 'node:path';
import * as z from 'zod';
import { defineTool, errorResult } from './types';
import { formatBytes } from './util/cap';
import { compileGlob, matchRules, parseGitignore, type GitignoreRule } from '../paths/globs';
import { displayPath, resolvePath } from './util/paths';
import type { WorkspacePort } from '../ports';

const MAX_ENTRIES = 500;
/** Folders that are listed but never expanded: big, generated, rarely what the model wants. */
const NOT_EXPANDED = new Set([
  '.git',
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.next',
  '.nuxt',
  '.gradle',
  '.idea',
]);
const HIDDEN_FILES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

const input = z.object({
  path: z.string().optional().describe('Folder to list (absolute or workspace-relative). Default: the workspace root.'),
  depth: z.number().int().min(1).max(5).optional().describe('How many levels to expand (default 1: just this folder).'),
  ignore: z
    .array(z.string())
    .optional()
    .describe('Extra glob patterns of names or relative paths to leave out, e.g. ["*.log", "dist"].'),
});

interface Level {
  base: string;
  rules: GitignoreRule[];
}

async function gitignoreAt(ws: WorkspacePort, dir: string): Promise<Level | undefined> {
  try {
    const rules = parseGitignore(Buffer.from(await ws.readFile(path.join(dir, '.gitignore'))).toString('utf8'));
    return rules.length ? { base: dir, rules } : undefined;
  } catch {
    return undefined;
  }
}

function ignoredBy(levels: Level[], abs: string, isDir: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const m = matchRules(levels[i].rules, path.relative(levels[i].base, abs).split(path.sep).join('/'), isDir);
    if (m) return m === 'ignore';
  }
  return false;
}

export const lsTool = defineTool({
  name: 'ls',
  kind: 'read',
  permission: { subject: 'path', folder: true, paths: (i) => [i.path] },
  modes: ['agent', 'plan'],
  description: [
    'Lists a folder: sub-folders (ending in /) first, then files with their sizes. depth > 1 shows a tree.',
    'Dependency and cache folders (node_modules, .git, __pycache__, …) and .gitignored folders are listed but not',
    'expanded.',
    'Use glob to find files by pattern across the workspace.',
  ].join(' '),
  input,
  subject: (i) => i.path ?? '.',
  async execute(i, ctx) {
    const ws = ctx.ports.workspace;
    const dir = await resolvePath(ws, i.path ?? '.');
    const st = await ws.stat(dir);
    if (!st) return errorResult(`Folder not found: ${displayPath(ws, dir)}.`);
    if (st.type !== 'directory') {
      return errorResult(
        `${displayPath(ws, dir)} is a file (${formatBytes(st.size)}), not a folder. Use read_file to read it.`,
      );
    }
    const ignores = [...(i.ignore ?? []), ...ws.excludeGlobs()].map((g) => compileGlob(g));
    const depth = i.depth ?? 1;
    const lines: string[] = [];
    let count = 0;
    let truncated = false;
    const visit = async (abs: string, level: number, levels: Level[], indent: string): Promise<void> => {
      const gi = await gitignoreAt(ws, abs);
      const here = gi ? [...levels, gi] : levels;
      let entries = await ws.readDir(abs);
      entries = entries.filter((e) => !HIDDEN_FILES.has(e.name));
      entries.sort(
        (a, b) => Number(b.type === 'directory') - Number(a.type === 'directory') || a.name.localeCompare(b.name),
      );
      for (const e of entries) {
        const childAbs = path.join(abs, e.name);
        const rel = path.relative(dir, childAbs).split(path.sep).join('/');
        if (ignores.some((re) => re.test(rel) || re.test(e.name))) continue;
        if (count >= MAX_ENTRIES) {
          truncated = true;
          return;
        }
        count++;
        if (e.type === 'directory') {
          const skip = NOT_EXPANDED.has(e.name)
            ? ' (not expanded)'
            : ignoredBy(here, childAbs, true)
              ? ' (gitignored, not expanded)'
              : '';
          lines.push(`${indent}${e.name}/${skip}`);
          if (!skip && level < depth) await visit(childAbs, level + 1, here, `${indent}  `);
        } else if (e.type === 'symlink') {
          lines.push(`${indent}${e.name} -> (symlink)`);
        } else {
          const s = await ws.stat(childAbs);
          lines.push(`${indent}${e.name}  (${s ? formatBytes(s.size) : '?'})`);
        }
      }
    };
    await visit(dir, 1, [], '');
    const head = `${displayPath(ws, dir)}/`;
    const body = lines.length ? lines.join('\n') : '(empty folder)';
    const cut = truncated ? `\n… (stopped after ${MAX_ENTRIES} entries; list a sub-folder or use glob)` : '';
    const text = `${head}\n${body}${cut}`;
    return { forModel: text, forUi: text, isError: false };
  },
});
