// Real git repositories for the git feature's tests: a temporary folder with a space in its name, a
// repository with the user's identity in its own config (the test machine may have none), and git to
// drive it from the test as the user would.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const hasGit = spawnSync('git', ['--version']).status === 0;

export interface Repo {
  base: string;
  dir: string;
  git(...args: string[]): string;
  write(rel: string, text: string): void;
  read(rel: string): string;
  hook(name: string, script: string): void;
  done(): void;
}

export function makeRepo(o: { identity?: boolean; history?: string[] } = {}): Repo {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'sextant git ')));
  const dir = join(base, 'my repo');
  mkdirSync(dir);
  const git = (...args: string[]) => {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  git('init', '-q', '-b', 'main');
  if (o.identity !== false) {
    git('config', 'user.name', 'Test User');
    git('config', 'user.email', 'test@example.com');
  }
  git('config', 'commit.gpgSign', 'false');
  const history = o.history ?? ['first'];
  history.forEach((subject, i) => {
    write(`history/${i}.txt`, `${subject}\n`);
    git('add', '-A');
    git('-c', 'user.name=Test User', '-c', 'user.email=test@example.com', 'commit', '-qm', subject);
  });
  return {
    base,
    dir,
    git,
    write,
    read: (rel) => readFileSync(join(dir, rel), 'utf8'),
    hook: (name, script) => {
      const file = join(dir, '.git', 'hooks', name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `#!/bin/sh\n${script}\n`);
      chmodSync(file, 0o755);
    },
    done: () => rmSync(base, { recursive: true, force: true }),
  };
}
