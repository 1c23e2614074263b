// Bundles test/fixtures/store/store-child.ts once per test file and spawns it.
import * as esbuild from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers';

let built: Promise<string> | undefined;
export function childScript(): Promise<string> {
  built ??= (async () => {
    const outdir = join(ROOT, 'dist-test', 'store-child');
    mkdirSync(outdir, { recursive: true });
    const outfile = join(outdir, `store-child-${process.pid}.cjs`);
    await esbuild.build({
      entryPoints: [join(ROOT, 'test/fixtures/store/store-child.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    return outfile;
  })();
  return built;
}

export async function spawnChild(args: string[]): Promise<ChildProcess> {
  return spawn(process.execPath, [await childScript(), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}
