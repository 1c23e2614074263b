// The command line's adapters for the engine's ports, each small: the workspace over node:fs (no editor:
// no unsaved text, edits written to disk), ripgrep from PATH, and no terminal mirror (core captures
// every command's output itself and the run's events carry it). There are no language services here:
// the tools that need them (definitions, references, rename) say so and suggest grep / edit_file.
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';
import { localFiles } from '../core/local-files';
import type { SearchPort, TerminalPort, WorkspacePort } from '../core/ports';

export function cliWorkspace(roots: string[], extraWriteRoots: () => string[]): WorkspacePort {
  return {
    ...localFiles,
    roots: () => roots,
    extraWriteRoots,
    dirtyText: async () => undefined,
    applyTextEdit: async (absPath, _newText, encodedBytes) => {
      await localFiles.writeFile(absPath, encodedBytes);
      return 'disk';
    },
    // No files.exclude here: .gitignore is still honoured by ripgrep.
    excludeGlobs: () => [],
  };
}

/** ripgrep from PATH (the image installs it); without one grep uses its JS fallback. */
export function cliSearch(env: Record<string, string | undefined>): SearchPort {
  let resolved: { path: string | undefined } | undefined;
  return {
    ripgrepPath() {
      if (!resolved) {
        const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
        const found = (env.PATH ?? '')
          .split(path.delimiter)
          .filter(Boolean)
          .map((dir) => path.join(dir, exe))
          .find((p) => {
            try {
              accessSync(p, constants.X_OK);
              return true;
            } catch {
              return false;
            }
          });
        resolved = { path: found };
      }
      return resolved.path;
    },
  };
}

/** No terminal to mirror commands in: their output reaches the user through the run's events. */
export const cliTerminal: TerminalPort = {};
