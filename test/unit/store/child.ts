// Bundles test/fixtures/store/store-child.ts (or another child script) once per test file and spawns it.
import * as esbuild from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers';

/** Bundles a child-process script (TypeScript under test/) once per test process; resolves to its path. */
export async function bundleChild(entry: string, name: string): Promise<string> {
  const outdir = join(ROOT, 'dist-test', name);
  mkdirSync(outdir, { recursive: true });
  const outfile = join(outdir, `${name}-${process.pid}.cjs`);
  await esbuild.build({
    entryPoints: [join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

let built: Promise<string> | undefined;
export function childScript(): Promise<string> {
  built ??= bundleChild('test/fixtures/store/store-child.ts', 'store-child');
  return built;
}

export async function spawnChild(args: string[]): Promise<ChildProcess> {
  return spawn(process.execPath, [await childScript(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}
