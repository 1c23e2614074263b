// Worktree per session: creation time on a 10,000-file repository (createWorktree as the session host
// calls it, and the `git worktree add` inside it alone), and merge-back time for 100 changed files —
// the change list for the review, apply to the main tree, merge the branch. Real git on a temporary
// repository; prints medians; asserts nothing.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorktree, mergeBack, removeWorktree, worktreeChanges } from '../../extension/core/worktrees';

const FILES = Number(process.env.WORKTREE_FILES ?? 10_000);
const CHANGED = Number(process.env.WORKTREE_CHANGED ?? 100);
const ROUNDS = Number(process.env.WORKTREE_ROUNDS ?? 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (v: number) => `${v.toFixed(0)} ms`;

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

function fileText(i: number, edit = ''): string {
  return `// file ${i}\nexport const value${i} = ${i};\n${'// filler line of a source file\n'.repeat(6)}${edit}`;
}

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-bench-wt-')));
  const repo = join(base, 'repo');
  try {
    for (let i = 0; i < FILES; i++) {
      const dir = join(repo, `pkg${Math.floor(i / 100)}`);
      if (i % 100 === 0) mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `f${i}.ts`), fileText(i));
    }
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'files');
    // Packed, as every clone and any repository git's auto gc has visited is: checking out 10,000 loose
    // objects (10,000 more files to open) costs several times the checkout itself.
    git(repo, 'repack', '-adq');
    console.log(`# worktrees: a ${FILES.toLocaleString('en')}-file repository, ${ROUNDS} rounds each`);

    const create: number[] = [];
    const usable: number[] = [];
    const filled: number[] = [];
    const rawAdd: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      const { worktree } = await createWorktree({ repo, title: `bench ${r}`, sessionId: `c${r}aaaa` });
      create.push(performance.now() - t);
      await removeWorktree(worktree, { deleteBranch: 'always' });
      t = performance.now();
      const early = await createWorktree({ repo, title: `bg ${r}`, sessionId: `d${r}aaaa`, populate: 'background' });
      usable.push(performance.now() - t);
      await early.ready;
      filled.push(performance.now() - t);
      await removeWorktree(early.worktree, { deleteBranch: 'always' });
      const raw = join(base, `raw-${r}`);
      t = performance.now();
      git(repo, 'worktree', 'add', '-q', '-b', `raw-${r}`, raw, 'HEAD');
      rawAdd.push(performance.now() - t);
      git(repo, 'worktree', 'remove', '--force', raw);
    }
    console.log(`create, files written (wait)     median ${ms(median(create))}`);
    console.log(`create, session may start (background) median ${ms(median(usable))}   (goal ≤ 500 ms)`);
    console.log(`  … its files all written        median ${ms(median(filled))}`);
    console.log(`plain git worktree add           median ${ms(median(rawAdd))}   (the checkout: the floor for 'wait')`);

    const changes: number[] = [];
    const apply: number[] = [];
    const merge: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (const choice of ['apply', 'merge'] as const) {
        const { worktree } = await createWorktree({ repo, title: `${choice} ${r}`, sessionId: `m${r}bbbb` });
        for (let i = 0; i < CHANGED; i++) {
          const n = (r * 997 + i * 89) % FILES;
          writeFileSync(
            join(worktree.path, `pkg${Math.floor(n / 100)}`, `f${n}.ts`),
            fileText(n, `// ${choice} ${r}\n`),
          );
        }
        let t = performance.now();
        const listed = await worktreeChanges(worktree);
        if (choice === 'apply') changes.push(performance.now() - t);
        if (listed.files.length !== CHANGED) throw new Error(`expected ${CHANGED} changes, got ${listed.files.length}`);
        t = performance.now();
        const done = await mergeBack(worktree, choice);
        (choice === 'apply' ? apply : merge).push(performance.now() - t);
        if (!done.ok) throw new Error(done.message);
        // Back to a clean main tree for the next round.
        if (choice === 'apply') {
          git(repo, 'add', '-A');
          git(repo, 'commit', '-qm', `applied ${r}`);
        }
      }
    }
    console.log(`changes for review, ${CHANGED} files     median ${ms(median(changes))}`);
    console.log(`merge back: apply, ${CHANGED} files      median ${ms(median(apply))}   (incl. worktree removal)`);
    console.log(
      `merge back: merge, ${CHANGED} files      median ${ms(median(merge))}   (incl. commit of the work, removal)`,
    );
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
