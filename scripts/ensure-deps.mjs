// `npm start` and `npm test` run this first (their pre-scripts), so a fresh clone needs no separate
// `npm install`: when node_modules is missing, or does not hold what package-lock.json pins, it runs
// `npm ci`. Node built-ins only — it runs before any dependency exists.
//
// "Holds what the lock pins": npm records what it installed in node_modules/.package-lock.json; every
// package the lock lists (optional ones only if they are installed, e.g. another platform's esbuild
// binary is not) must be there with the same version.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const say = (msg) => console.log(`[deps] ${msg}`);

function packagesOf(file) {
  return JSON.parse(readFileSync(file, 'utf8')).packages ?? {};
}

/** Why node_modules must be (re)installed, or undefined when it matches the lock. */
function staleReason() {
  const installed = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(join(root, 'node_modules'))) return 'node_modules is missing';
  if (!existsSync(installed)) return 'node_modules was not installed by npm';
  const want = packagesOf(join(root, 'package-lock.json'));
  const have = packagesOf(installed);
  for (const [path, entry] of Object.entries(want)) {
    if (path === '' || entry.link) continue;
    const got = have[path];
    if (!got) {
      if (entry.optional || entry.devOptional) continue;
      return `${path.replace(/^.*node_modules\//, '')} is not installed`;
    }
    if (entry.version && got.version !== entry.version)
      return `${path.replace(/^.*node_modules\//, '')} is ${got.version}, the lock pins ${entry.version}`;
  }
  return undefined;
}

const reason = staleReason();
if (reason) {
  say(`${reason}: npm ci…`);
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[deps] npm ci failed (exit ${r.status}); fix what it says above, then run the command again.`);
    process.exit(r.status ?? 1);
  }
}
