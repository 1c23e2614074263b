// The few file reads the project's own files (rules, commands, skills) need, over the workspace port:
// a missing file or folder is simply absent, never an error, since almost every project lacks most of them.
import * as path from 'node:path';
import type { WorkspacePort } from '../ports';
import { listRepositoryFolder, type ReadScope, readRepositoryFile } from './repository-file';

export interface ProjectFiles {
  /** Workspace folder roots, absolute. */
  roots(): string[];
  /** The user's home folder (for the user's own rules, commands and skills); undefined: none. */
  home(): string | undefined;
  /**
   * The file's text; undefined when missing. A file over `maxBytes` is not read: `text` is then
   * undefined and `size` says how big it is (the caller tells the user why it was left out). A file
   * the safe-read rule refuses (repository-file.ts: a link out of the workspace, a key, /proc, .env)
   * has no text and `refused` says why, for the user.
   */
  readText(absPath: string, maxBytes: number): Promise<{ text?: string; size: number; refused?: string } | undefined>;
  /** A folder's entries; empty when it is missing (or a link the safe-read rule refuses). */
  list(absPath: string): Promise<Array<{ name: string; type: 'file' | 'directory' | 'other' }>>;
  /** The enabled plugins' command, agent and skill folders (after the workspace's and the user's). */
  plugins?(): readonly PluginFolders[];
}

/** What an enabled plugin adds to the loaders (plugins/plugin-parts.ts reads it from the plugin). */
export interface PluginFolders {
  name: string;
  root: string;
  /** Folders or single `.md` files; a command is `/name:command`. */
  commands: readonly string[];
  agents: readonly string[];
  /** Folders whose subfolders are skills. */
  skills: readonly string[];
}

export function projectFilesOver(
  workspace: WorkspacePort,
  home: string | undefined,
  plugins: () => readonly PluginFolders[] = () => [],
): ProjectFiles {
  const scope = (): ReadScope => ({ roots: workspace.roots(), home, pluginRoots: plugins().map((p) => p.root) });
  return {
    roots: () => workspace.roots(),
    home: () => home,
    plugins,
    async readText(absPath, maxBytes) {
      // A link (CLAUDE.md -> AGENTS.md is common) is read at its real path, if that may be read.
      const read = await readRepositoryFile(workspace, absPath, scope(), maxBytes);
      if (read.kind === 'missing') return undefined;
      if (read.kind === 'refused') return { size: 0, refused: read.reason };
      if (read.kind === 'too-large') return { size: read.size };
      return { text: read.text, size: read.size };
    },
    list: (absPath) => listRepositoryFolder(workspace, absPath, scope()),
  };
}

/** `child` is `parent` or inside it (plain path comparison; both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
