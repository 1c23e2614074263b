// Real git repositories for the worktree tests: a temporary folder (under the OS temp folder, with a
// space in its name, as a clone anywhere may be), a repository with a few committed files, and git to
// drive it from the test as a user would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

export const hasGit = spawnSync('git', ['--version']).status === 0;

export interface Fixture {
  /** Folder holding the repository (and, by default, its worktrees folder). */
  base: string;
  /** The main working tree. */
  repo: string;
  git(cwd: string, ...args: string[]): string;
  write(file: string, text: string): void;
  read(file: string): string;
  done(): void;
}

const IDENTITY = ['-c', 'user.name=Test User', '-c', 'user.email=test@example.com'];

export function fixture(o: { commit?: boolean } = {}): Fixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'sextant wt ')));
  const repo = join(base, 'my project');
  mkdirSync(repo);
  const git = (cwd: string, ...args: string[]) => {
    const r = spawnSync('git', [...IDENTITY, ...args], { cwd, encoding: 'utf8' });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const write = (file: string, text: string) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  };
  git(repo, 'init', '-q', '-b', 'main');
  if (o.commit !== false) {
    write(join(repo, 'a.txt'), 'one\ntwo\nthree\n');
    write(join(repo, 'src', 'b.txt'), 'bee\n');
    write(join(repo, 'gone.txt'), 'to be deleted\n');
    write(join(repo, 'old name.txt'), 'a file that moves, long enough to be seen as a rename\n'.repeat(4));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'first');
  }
  return {
    base,
    repo,
    git,
    write,
    read: (file) => readFileSync(file, 'utf8'),
    done: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Every file below `dir` (not `.git`) with its bytes, and the repository's status and HEAD: "as it was". */
export function treeState(f: Fixture, dir: string): string {
  const files: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      if (name === '.git') continue;
      const full = join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(`${relative(dir, full)}\n${readFileSync(full, 'utf8')}`);
    }
  };
  walk(dir);
  return [
    ...files,
    `status:\n${f.git(dir, 'status', '--porcelain=v2', '--branch', '--untracked-files=all')}`,
    `index:\n${f.git(dir, 'ls-files', '-s')}`,
  ].join('\n---\n');
}
