// Loads the command's bundle (dist/cli-main.js, ~1 MB) with its compiled code kept between runs, so a
// cold `sextant -p` does not parse and compile the same megabyte every time. Node ≥ 22.1 has this built
// in (module.enableCompileCache: it then covers the provider bundles too); on Node 20 the bundle is
// compiled through vm.Script with V8's cached data, written once after a run that had none, and so is
// every other bundle of the same folder the command requires later (provider-openai.js, mcp-client.js):
// the provider's SDK is compiled before the first request leaves.
//
// The cache sits in `<SEXTANT_HOME>/cache/` (owner-only, like the rest of the folder); how a cache file is
// named and checked is platform/code-cache.ts, which the extension's runtime uses too. Any failure falls
// back to a plain require: the cache only ever saves time.
import { channel } from 'node:diagnostics_channel';
import { mkdirSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import { compileWithV8Cache, type V8CachedBundle } from '../platform/code-cache';
import { noteCodeCache } from './startup-trace';

type CompileCacheModule = { enableCompileCache?: (dir: string) => unknown };
type JsLoader = (module: NodeModule, filename: string) => void;
type ModuleInternals = { _extensions: Record<string, JsLoader> };

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
    const mod = { exports: {} as unknown, filename: file, id: file, loaded: false };
    const used = runThroughV8Cache(mod, file, cacheDir, createRequire(file));
    noteCodeCache(used ? 'v8' : 'v8-writing');
    cacheSiblingBundles(path.dirname(file), cacheDir);
    return mod.exports;
  } catch {
    noteCodeCache('none');
    return require(file) as unknown;
  }
}

/**
 * The other bundles of the command's folder, required later by the engine (`require(bundleDir/…)`),
 * compiled through the same cache: Node's loader for `.js`, wrapped for files directly in `dir` only.
 */
function cacheSiblingBundles(dir: string, cacheDir: string): void {
  const extensions = (Module as unknown as ModuleInternals)._extensions;
  const plain = extensions['.js'];
  if (!plain) return;
  extensions['.js'] = (module, filename) => {
    if (path.dirname(filename) !== dir) return plain(module, filename);
    try {
      runThroughV8Cache(module, filename, cacheDir, createRequire(filename));
    } catch (err) {
      // Only a failure before the module's own code ran falls back; its own errors are its own.
      if (!(err instanceof CacheUnavailable)) throw err;
      plain(module, filename);
    }
  };
}

class CacheUnavailable extends Error {}

/** Compiles and runs `file` as a CommonJS module into `mod`; true when V8 took the cached data. */
function runThroughV8Cache(
  mod: { exports: unknown; loaded: boolean },
  file: string,
  cacheDir: string,
  req: NodeJS.Require,
): boolean {
  let bundle: V8CachedBundle;
  try {
    bundle = compileWithV8Cache(file, cacheDir);
  } catch (err) {
    throw new CacheUnavailable(String(err));
  }
  const used = bundle.cache === 'used';
  if (!used) writeWhenTheRequestIsOut(() => bundle.write());
  bundle.run(mod, req);
  return used;
}

const pendingWrites: Array<() => void> = [];

/**
 * The data covers every function compiled so far. Written once the model's response starts (its
 * headers arrive: every function on the path to the request has run), it holds that path and not the
 * rest of the run (the store's journal, sql.js, the output), which the next run would otherwise
 * deserialise before its request; at exit when no request was made.
 */
function writeWhenTheRequestIsOut(write: () => void): void {
  if (pendingWrites.push(write) > 1) return;
  const flush = () => {
    undiciHeaders.unsubscribe(onHeaders);
    for (const w of pendingWrites.splice(0)) w();
  };
  const onHeaders = () => void setImmediate(flush);
  // undici (Node's fetch, which the provider SDKs use) reports a response's headers on this channel.
  const undiciHeaders = channel('undici:request:headers');
  undiciHeaders.subscribe(onHeaders);
  process.once('exit', flush);
}
