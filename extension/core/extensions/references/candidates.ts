// Files and folders for the `@` listbox: the workspace's files as ripgrep selects them — .gitignore,
// files.exclude and search.exclude honoured (the same listing glob uses) — matched fuzzily against what
// follows the `@`. The list is kept a few seconds, so typing does not list the workspace per keystroke.
import * as path from 'node:path';
import type { ReferenceCandidate } from '../../../protocol';
import type { WorkspacePort } from '../../ports';
import { listFiles } from '../../tools/util/list-files';

const MAX_CANDIDATES = 30;
const MAX_FILES = 50_000;
const KEEP_MS = 5_000;

/**
 * A fuzzy score of `query` in `target` (both lower case), higher is better; undefined when the letters
 * of the query do not all appear in order. Contiguous runs, matches at the start of a path segment and
 * in the file name score higher; shorter paths win ties.
 */
export function fuzzyScore(query: string, target: string): number | undefined {
  if (!query) return 0;
  const nameStart = target.lastIndexOf('/') + 1;
  let score = 0;
  let ti = 0;
  let run = 0;
  for (const ch of query) {
    const at = target.indexOf(ch, ti);
    if (at < 0) return undefined;
    run = at === ti && ti > 0 ? run + 1 : 0;
    score += 1 + run * 2;
    if (
      at === 0 ||
      target[at - 1] === '/' ||
      target[at - 1] === '.' ||
      target[at - 1] === '-' ||
      target[at - 1] === '_'
    )
      score += 3;
    if (at >= nameStart) score += 1;
    ti = at + 1;
  }
  if (target.includes(query)) score += query.length * 2;
  return score - target.length / 100;
}

/** The best files and folders for a query, best first. `paths` are workspace-relative with `/`. */
export function rankPaths(query: string, files: readonly string[]): ReferenceCandidate[] {
  const q = query.toLowerCase();
  const folders = new Set<string>();
  for (const f of files) for (let i = f.indexOf('/'); i > 0; i = f.indexOf('/', i + 1)) folders.add(f.slice(0, i));
  const scored: Array<{ c: ReferenceCandidate; s: number }> = [];
  const add = (p: string, kind: 'file' | 'folder') => {
    const s = fuzzyScore(q, p.toLowerCase());
    if (s === undefined) return;
    const label = kind === 'folder' ? `@${p}/` : `@${p}`;
    scored.push({ c: { kind, value: p, label, detail: kind === 'folder' ? 'folder' : path.posix.dirname(p) }, s });
  };
  for (const f of files) add(f, 'file');
  for (const d of folders) add(d, 'folder');
  scored.sort((a, b) => b.s - a.s || a.c.value.localeCompare(b.c.value));
  return scored.slice(0, MAX_CANDIDATES).map((x) => x.c);
}

export class FileCandidates {
  private cached: { at: number; files: Promise<string[]> } | undefined;

  constructor(
    private readonly workspace: WorkspacePort,
    private readonly ripgrepPath: () => string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async find(query: string): Promise<ReferenceCandidate[]> {
    return rankPaths(query, await this.files());
  }

  private files(): Promise<string[]> {
    const t = this.now();
    if (!this.cached || t - this.cached.at > KEEP_MS) {
      const files = this.list();
      this.cached = { at: t, files };
      files.catch(() => (this.cached = undefined));
    }
    return this.cached.files;
  }

  private async list(): Promise<string[]> {
    const roots = this.workspace.roots();
    const out: string[] = [];
    for (const root of roots) {
      const { files } = await listFiles({
        ws: this.workspace,
        rgPath: this.ripgrepPath(),
        dir: root,
        workspaceRoot: root,
      });
      // In a multi-root workspace the first root's paths stay relative; others are absolute (resolvePath's rule).
      for (const f of files.slice(0, MAX_FILES)) {
        const rel = path.relative(roots[0], f);
        out.push(
          rel.startsWith('..') || path.isAbsolute(rel) ? f.split(path.sep).join('/') : rel.split(path.sep).join('/'),
        );
      }
    }
    return out;
  }
}
