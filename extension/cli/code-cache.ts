// Loads the command's bundle (dist/cli-main.js, ~1 MB) with its compiled code kept between runs, so a
// cold `sextant -p` does not parse and compile the same megabyte every time. Node ≥ 22.1 has this built
// in (module.enableCompileCache: it then covers the provider bundles too); on Node 20 the bundle is
// compiled through vm.Script with V8's cached data, written once after a run that had none.
//
// The cache sits in `<SEXTANT_HOME>/cache/` (owner-only, like the rest of the folder). Its file name
// carries a hash of the bundle's text, the Node version and the architecture, so an upgraded bundle or
// Node never reads a stale one; V8 itself rejects data from another V8 or other flags (then it is
// rewritten). Whoever can write that folder can already change the user's settings and MCP servers, so
// it trusts nothing new. Any failure falls back to a plain require: the cache only ever saves time.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { noteCodeCache } from './startup-trace';

type CompileCacheModule = { enableCompileCache?: (dir: string) => unknown };

/** `require(file)`, through the compile cache in `cacheDir` when there is one to use. */
export function requireCached(file: string, cacheDir: string | undefined, env: Record<string, string | undefined>) {
  if (!cacheDir || env.SEXTANT_CODE_CACHE === 'off') {
    noteCodeCache('none');
    return require(file) as unknown;
  }
  const builtIn = (Module as unknown as CompileCacheModule).enableCompileCache;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    if (builtIn) {
      builtIn(cacheDir);
      noteCodeCache('node');
      return require(file) as unknown;
    }
    return requireThroughV8Cache(file, cacheDir);
  } catch {
    noteCodeCache('none');
    return require(file) as unknown;
  }
}

function requireThroughV8Cache(file: string, cacheDir: string): unknown {
  const source = readFileSync(file, 'utf8');
  const id = createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(source).digest('hex');
  const base = path.basename(file);
  const cacheFile = path.join(cacheDir, `${base}.${id.slice(0, 32)}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet: this run writes it
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  noteCodeCache(used ? 'v8' : 'v8-writing');
  // At exit the data covers every function this run compiled (the whole path to the request), not
  // only the top level.
  if (!used) process.once('exit', () => writeCache(script, cacheDir, cacheFile, base));
  const mod = { exports: {} as unknown, filename: file, id: file, loaded: false };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  return mod.exports;
}

function writeCache(script: vm.Script, dir: string, file: string, base: string): void {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    renameSync(tmp, file);
    // Data for an older bundle or Node is never read again.
    for (const f of readdirSync(dir))
      if (f.startsWith(`${base}.`) && path.join(dir, f) !== file && f.endsWith('.v8')) rmSync(path.join(dir, f));
  } catch {
    // A cache that cannot be written costs the next run its compile time, nothing else.
  }
}
