// Bundles bench/lib/worktrees.ts and runs it: worktree creation on a 10,000-file repository (goal
// ≤ 500 ms) and merge-back time (review list, apply, merge) for 100 changed files. Prints medians.
// Usage: node bench/worktrees.mjs   (WORKTREE_FILES=10000 WORKTREE_CHANGED=100 WORKTREE_ROUNDS=5)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-worktrees-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/worktrees.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
