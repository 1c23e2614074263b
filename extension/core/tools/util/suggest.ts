// "Did you mean…" for missing paths: siblings whose names are close to the one asked for.
import * as path from 'node:path';
import type { WorkspacePort } from '../../ports';

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

export async function similarNames(ws: WorkspacePort, abs: string, max = 3): Promise<string[]> {
  const dir = path.dirname(abs);
  const want = path.basename(abs).toLowerCase();
  const stem = want.replace(/\.[^.]*$/, '');
  let entries: Array<{ name: string }>;
  try {
    entries = await ws.readDir(dir);
  } catch {
    return [];
  }
  return entries
    .map((e) => {
      const n = e.name.toLowerCase();
      const d = n.replace(/\.[^.]*$/, '') === stem ? 0 : editDistance(n, want);
      return { name: e.name, d };
    })
    .filter((x) => x.d <= Math.max(2, Math.floor(want.length / 4)))
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((x) => path.join(dir, x.name));
}
