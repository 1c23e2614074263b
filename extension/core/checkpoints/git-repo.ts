// The few git operations command coverage needs, each one `git` process: where a folder's repository
// is, which paths it ignores, and the bytes of blobs (with the working tree's filters applied, so
// line endings and smudge filters give back the file as it was on disk).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { hostGitEnv } from '../security/host-git';

export interface GitRepo {
  /** The working tree's top folder (real path). */
  top: string;
  /** The repository folder (`.git`, or a worktree's own). */
  gitDir: string;
  /** Bytes per object id: 20 (SHA-1) or 32 (SHA-256). */
  oidBytes: number;
}

/**
 * Runs git, resolving with stdout; rejects on a non-zero exit or when git cannot be started. git runs
 * on the host, so with a scrubbed environment and nothing of the repository's config that runs a
 * program (host-git.ts): `cat-file --filters` and a worktree diff would run its filter drivers.
 */
export async function runGit(cwd: string, args: string[], input?: string): Promise<Buffer> {
  const env = await hostGitEnv(cwd);
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      cwd,
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`git ${args[0]}: ${err.trim() || `exit ${code}`}`)),
    );
    if (child.stdin) {
      // git may exit before reading all (an error): its exit code tells, not the broken pipe.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
  });
}

/** The repository whose working tree holds `folder`, or undefined (not in one, or no git). */
export async function findRepo(folder: string): Promise<GitRepo | undefined> {
  try {
    const out = await runGit(folder, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--show-object-format']);
    const [top, gitDir, format] = out.toString('utf8').trim().split('\n');
    if (!top || !gitDir) return undefined;
    return { top: path.resolve(top), gitDir: path.resolve(gitDir), oidBytes: format === 'sha256' ? 32 : 20 };
  } catch {
    return undefined;
  }
}

/** Paths git ignores (repository-relative; a folder ignored whole ends with "/"). */
export async function ignoredPaths(repo: GitRepo): Promise<string[]> {
  const out = await runGit(repo.top, ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
  return out.toString('utf8').split('\0').filter(Boolean);
}

/** Which of `paths` (repository-relative) git ignores. */
export async function checkIgnored(repo: GitRepo, paths: string[]): Promise<Set<string>> {
  if (!paths.length) return new Set();
  // Exit 1 means "none ignored": not an error here.
  const out = await runGit(repo.top, ['check-ignore', '-z', '--stdin'], `${paths.join('\0')}\0`).catch(() =>
    Buffer.alloc(0),
  );
  return new Set(out.toString('utf8').split('\0').filter(Boolean));
}

/**
 * The bytes of each blob as the working tree would have them at `path` (`cat-file --batch --filters`),
 * in one git process. A blob git cannot give is absent from the result.
 */
export async function readBlobs(
  repo: GitRepo,
  wanted: Array<{ oid: string; path: string }>,
): Promise<Map<string, Buffer>> {
  const result = new Map<string, Buffer>();
  if (!wanted.length) return result;
  const input = wanted.map((w) => `${w.oid} ${w.path}\n`).join('');
  const out = await runGit(repo.top, ['cat-file', '--batch', '--filters'], input);
  let off = 0;
  for (const w of wanted) {
    const nl = out.indexOf(10, off);
    if (nl < 0) break;
    const header = out.toString('utf8', off, nl).split(' ');
    off = nl + 1;
    if (header[1] === 'missing' || header.length < 3) continue;
    const size = Number(header[2]);
    result.set(w.path, out.subarray(off, off + size));
    off += size + 1;
  }
  return result;
}
