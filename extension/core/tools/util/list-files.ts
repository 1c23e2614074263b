// Lists the files under a folder with ripgrep's selection rules (rg --files when available, the
// JS walker otherwise): .gitignore honoured, hidden files included, `.git` and user excludes skipped.
import * as path from 'node:path';
import type { WorkspacePort } from '../../ports';
import { RG_BASE_FLAGS, runRipgrep } from './ripgrep';
import { Overrides, walkFiles } from './walk';

export interface ListOptions {
  ws: WorkspacePort;
  rgPath: string | undefined;
  dir: string;
  workspaceRoot?: string;
  includeIgnored?: boolean;
  signal?: AbortSignal;
}

/** Absolute paths of the selected files (unordered). */
export async function listFiles(o: ListOptions): Promise<{ files: string[]; truncated: boolean }> {
  const excludes = o.ws.excludeGlobs().map((g) => `!${g}`);
  if (o.rgPath) {
    const args = ['--files', ...RG_BASE_FLAGS, '--null', ...excludes.flatMap((g) => ['--glob', g])];
    if (o.includeIgnored) args.push('--no-ignore');
    args.push('.');
    const run = await runRipgrep(o.rgPath, args, o.dir, o.signal);
    if (run.exitCode === 2 && run.stdout === '') throw new Error(run.stderr.trim() || 'rg --files failed');
    return {
      files: run.stdout
        .split('\0')
        .filter(Boolean)
        .map((f) => path.join(o.dir, f)),
      truncated: run.truncated,
    };
  }
  const files: string[] = [];
  await walkFiles({
    ws: o.ws,
    dir: o.dir,
    workspaceRoot: o.workspaceRoot,
    overrides: new Overrides(['!.git', ...excludes]),
    respectIgnoreFiles: !o.includeIgnored,
    signal: o.signal,
    onFile: (abs) => {
      files.push(abs);
    },
  });
  return { files, truncated: false };
}
