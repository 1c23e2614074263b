// Bundles bench/lib/command-coverage.ts and runs it: the time command coverage adds to each command
// (stat index before + after, the changed files' old bytes saved, the checkpoint made durable) in a git
// repository of 10,000 files, and the disk the checkpoints use after 100 such commands, with file events
// (the change watcher in a worker thread, as in VS Code) and without (two full stat scans). Asserts nothing.
// Usage: node bench/command-coverage.mjs   (COVERAGE_FILES=10000 COVERAGE_STEPS=100 COVERAGE_MODES=events,scans)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-command-coverage-${process.pid}.cjs`);
const watcher = join(root, 'dist-test', `bench-change-watcher-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/command-coverage.ts'), outfile: out });
await bundleForNode({ entry: join(root, 'extension/platform/watch/change-watcher.ts'), outfile: watcher });
const r = spawnSync(process.execPath, [out], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, SEXTANT_CHANGE_WATCHER: watcher },
});
rmSync(out, { force: true });
rmSync(watcher, { force: true });
process.exit(r.status ?? 1);
