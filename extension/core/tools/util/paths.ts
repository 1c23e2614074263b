// Path handling shared by the tools: the model may give absolute or workspace-relative paths;
// writers are confined to the workspace roots by *real* path so a symlink cannot lead outside.
import * as path from 'node:path';
import type { WorkspacePort } from '../../ports';

export class ToolInputError extends Error {
  /** `summary`: one plain line for the tool card when the message is long (a failed edit's candidates). */
  constructor(
    message: string,
    readonly summary?: string,
  ) {
    super(message);
    this.name = 'ToolInputError';
  }
}

function firstRoot(ws: WorkspacePort): string {
  const root = ws.roots()[0];
  if (!root)
    throw new ToolInputError(
      'No workspace folder is open, so there is nowhere to work. Ask the user to open a folder.',
    );
  return root;
}

/**
 * Resolves a model-given path. Relative paths resolve against the first workspace root; when
 * that does not exist but another root has it, that root wins (multi-root workspaces).
 */
export async function resolvePath(ws: WorkspacePort, given: string): Promise<string> {
  const p = given.trim();
  if (p === '')
    throw new ToolInputError('The path is empty. Give an absolute path or one relative to the workspace root.');
  if (path.isAbsolute(p)) return path.normalize(p);
  const roots = ws.roots();
  const primary = path.resolve(firstRoot(ws), p);
  if (roots.length > 1 && !(await ws.stat(primary))) {
    for (const root of roots.slice(1)) {
      const candidate = path.resolve(root, p);
      if (await ws.stat(candidate)) return candidate;
    }
  }
  return primary;
}

/** The real path of a possibly non-existent file: the deepest existing ancestor resolved, the rest appended. */
export async function realPathOf(ws: Pick<WorkspacePort, 'realPath'>, abs: string): Promise<string> {
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = await ws.realPath(cur);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return abs;
      tail.push(path.basename(cur));
      cur = parent;
    }
  }
}

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Throws a ToolInputError unless `abs` (symlinks resolved) lies inside a workspace root. */
export async function assertWritable(ws: WorkspacePort, abs: string): Promise<void> {
  const real = await realPathOf(ws, abs);
  for (const root of [...ws.roots(), ...(ws.extraWriteRoots?.() ?? [])]) {
    const realRoot = await realPathOf(ws, root);
    if (isInside(real, realRoot)) return;
  }
  const via = real !== abs ? ` (it resolves to ${real} through a symbolic link)` : '';
  throw new ToolInputError(
    `Refused: ${abs}${via} is outside the workspace folders (${ws.roots().join(', ')}). Writers may only change ` +
      'files inside the workspace (and the folders the user lists in sextant.sandbox.extraWriteRoots).',
  );
}

/** A path as shown to the model and user: relative to the first root when inside it, else absolute. */
export function displayPath(ws: WorkspacePort, abs: string): string {
  const root = ws.roots()[0];
  if (root && isInside(abs, root)) {
    const rel = path.relative(root, abs);
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  }
  return abs;
}

/** The workspace root containing `abs`, if any. */
export function rootOf(ws: WorkspacePort, abs: string): string | undefined {
  return ws.roots().find((r) => isInside(abs, r));
}

export function errnoCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}
