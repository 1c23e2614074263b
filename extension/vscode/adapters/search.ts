// SearchPort: finds the ripgrep binary VS Code ships (see ripgrepCandidates), falling back to an
// `rg` on PATH. Resolved once per window; undefined makes grep use its JS fallback.
import { accessSync, constants } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SearchPort } from '../../core/ports';
import { ripgrepCandidates } from '../../core/tools/util/ripgrep';

function executable(p: string): boolean {
  try {
    accessSync(p, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(): string | undefined {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && executable(path.join(dir, exe))) return path.join(dir, exe);
  }
  return undefined;
}

export function createSearchPort(): SearchPort {
  let resolved: { path: string | undefined } | undefined;
  return {
    ripgrepPath() {
      if (!resolved) {
        const bundled = ripgrepCandidates(vscode.env.appRoot, process.platform, process.arch)
          .map((p) => path.normalize(p))
          .find(executable);
        resolved = { path: bundled ?? onPath() };
      }
      return resolved.path;
    },
  };
}
