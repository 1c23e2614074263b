// glob: find files by name pattern, newest first.
import * as path from 'node:path';
import * as z from 'zod';
import { defineTool, errorResult } from './types';
import { plural } from './util/cap';
import { compileGlob } from '../paths/globs';
import { listFiles } from './util/list-files';
import { displayPath, resolvePath, rootOf } from './util/paths';
import { toSlash } from './util/walk';

const DEFAULT_LIMIT = 100;

const input = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('Glob relative to path, e.g. "**/*.ts", "src/**/*.{ts,tsx}", "*.json" (top level only), "**/README*".'),
  path: z
    .string()
    .optional()
    .describe('Folder to search in (absolute or workspace-relative). Default: the workspace root.'),
  include_ignored: z.boolean().optional().describe('Also list files ignored by .gitignore (default false).'),
  head_limit: z.number().int().min(1).max(2000).optional().describe(`Most paths to return (default ${DEFAULT_LIMIT}).`),
});

export const globTool = defineTool({
  name: 'glob',
  kind: 'read',
  permission: { subject: 'path', folder: true, paths: (i) => [i.path] },
  modes: ['agent', 'plan'],
  description: [
    'Finds files by name with a glob pattern ("**/*.ts", "src/**/test_*.py", "*.{json,yaml}") and returns their',
    'paths, most recently modified first.',
    '`*` does not cross folders, so use "**/" to search at any depth. Honours .gitignore and the editor\'s excluded',
    'files; hidden files are included.',
    'Use it to locate files before reading them; use grep to search inside files.',
  ].join(' '),
  input,
  subject: (i) => i.pattern,
  async execute(i, ctx) {
    const ws = ctx.ports.workspace;
    const dir = await resolvePath(ws, i.path ?? '.');
    const st = await ws.stat(dir);
    if (st?.type !== 'directory') {
      return errorResult(`${displayPath(ws, dir)} is not a folder. Give a folder as path.`);
    }
    let pattern = i.pattern;
    if (path.isAbsolute(pattern)) {
      const rel = path.relative(dir, pattern);
      if (rel.startsWith('..')) {
        return errorResult(
          `The pattern ${pattern} is outside ${displayPath(ws, dir)}. ` +
            'Put the folder in path and a relative glob in pattern.',
        );
      }
      pattern = toSlash(rel);
    }
    const re = compileGlob(pattern);
    const { files } = await listFiles({
      ws,
      rgPath: ctx.ports.search.ripgrepPath(),
      dir,
      workspaceRoot: rootOf(ws, dir),
      includeIgnored: i.include_ignored,
      signal: ctx.signal,
    });
    const matched = files.filter((f) => re.test(toSlash(path.relative(dir, f))));
    const withTimes = await Promise.all(matched.map(async (f) => ({ f, t: (await ws.stat(f))?.mtimeMs ?? 0 })));
    withTimes.sort((a, b) => b.t - a.t || (a.f < b.f ? -1 : 1));
    const limit = i.head_limit ?? DEFAULT_LIMIT;
    const shown = withTimes.slice(0, limit).map((x) => displayPath(ws, x.f));
    let text: string;
    if (shown.length === 0) {
      const hint =
        !pattern.includes('/') && !pattern.startsWith('**')
          ? ` "${pattern}" only matches at the top level of the folder; try "**/${pattern}".`
          : '';
      text = `No files match ${pattern} in ${displayPath(ws, dir)}.${hint}`;
    } else {
      text = shown.join('\n');
      if (withTimes.length > limit)
        text +=
          `\n\n(Showing the ${limit} most recently modified of ${withTimes.length} matches. Narrow the ` +
          'pattern or path to see others.)';
    }
    return {
      forModel: text,
      forUi: `${plural(withTimes.length, 'file')}\n${text}`,
      isError: false,
    };
  },
});
