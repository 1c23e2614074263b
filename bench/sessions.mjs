// Bundles bench/lib/sessions.ts and runs it: 4 chats × 50 tool steps at 200 ms per model call through one
// session hub (real controllers, one real store): wall ÷ slowest alone, a fifth chat's first use while they
// run, and the memory an idle chat adds. Asserts nothing.
// Usage: node bench/sessions.mjs   (SESSIONS_CHATS=4 SESSIONS_STEPS=50 SESSIONS_MODEL_MS=200)
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-sessions-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/sessions.ts'), outfile: out });
const r = spawnSync(process.execPath, ['--expose-gc', out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
