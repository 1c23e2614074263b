// Bundles bench/lib/claims.ts and runs it: the citation checker's lexical floor on the labelled claim
// set — true claims kept, false claims caught and judge calls saved, alone and with a fake judge.
// Usage: node bench/claims.mjs
import { bundleForNode } from '../scripts/bundle-node.mjs';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const out = join(root, 'dist-test', `bench-claims-${process.pid}.cjs`);
await bundleForNode({ entry: join(root, 'bench/lib/claims.ts'), outfile: out });
const r = spawnSync(process.execPath, [out], { cwd: root, stdio: 'inherit' });
rmSync(out, { force: true });
process.exit(r.status ?? 1);
