// Bundles bench/lib/auto-mode.ts (TypeScript; the session comes from test/fixtures) and runs it.
// Prints the prompts of ask vs auto mode over a scripted 100-step Agent session; asserts nothing.
// Usage: npm run bench -- auto-mode
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-auto-mode-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/auto-mode.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
