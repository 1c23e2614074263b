// The few file reads the project's own files (rules, commands, skills) need, over the workspace port:
// a missing file or folder is simply absent, never an error, since almost every project lacks most of them.
import * as path from 'node:path';
import type { WorkspacePort } from '../ports';

export interface ProjectFiles {
  /** Workspace folder roots, absolute. */
  roots(): string[];
  /** The user's home folder (for the user's own rules, commands and skills); undefined: none. */
  home(): string | undefined;
  /**
   * The file's text; undefined when missing. A file over `maxBytes` is not read: `text` is then
   * undefined and `size` says how big it is (the caller tells the user why it was left out).
   */
  readText(absPath: string, maxBytes: number): Promise<{ text?: string; size: number } | undefined>;
  /** A folder's entries; empty when it is missing. */
  list(absPath: string): Promise<Array<{ name: string; type: 'file' | 'directory' | 'other' }>>;
}

export function projectFilesOver(workspace: WorkspacePort, home: string | undefined): ProjectFiles {
  return {
    roots: () => workspace.roots(),
    home: () => home,
    async readText(absPath, maxBytes) {
      const stat = await workspace.stat(absPath).catch(() => undefined);
      // A symlinked rules file (CLAUDE.md → AGENTS.md is common) is read through its link.
      if (!stat || (stat.type !== 'file' && stat.type !== 'symlink')) return undefined;
      if (stat.size > maxBytes) return { size: stat.size };
      const bytes = await workspace.readFile(absPath, { maxBytes }).catch(() => undefined);
      if (!bytes) return undefined;
      return { text: Buffer.from(bytes).toString('utf8'), size: bytes.byteLength };
    },
    async list(absPath) {
      const entries = await workspace.readDir(absPath).catch(() => []);
      return entries.map((e) => ({
        name: e.name,
        type: e.type === 'file' || e.type === 'directory' ? e.type : 'other',
      }));
    },
  };
}

/** `child` is `parent` or inside it (plain path comparison; both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
