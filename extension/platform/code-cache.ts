// One of our own CommonJS bundles compiled with V8's code cache, as VS Code loads its own code. A fresh
// process compiles every function the first time it runs — a bundle's start, then a first request's whole
// path (the message handled, the session, the prompt, the SDK's request): a few milliseconds per step on
// a busy machine. Written once a process has made its first request, the cache holds the functions
// compiled by then, and the next process starts with them compiled. Two hosts use it: the CLI
// (cli/code-cache.ts: when it writes, and the bundles it loads later) and the extension (runtime.js and
// the provider bundles, written after a window's first request ends).
//
// The cache file is named by a hash of the bundle's bytes, Node's version and the architecture: V8 itself
// checks only the source's *length*, so a same-length update must never meet an old cache (it would run
// the old code). V8 refuses data from another V8 or other flags; the bundle is then compiled as before and
// the cache made again. A missing, unreadable or unwritable cache costs only the speed-up. The folder is
// the user's own (owner-only): whoever can write it can already change the extension or the settings.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** A bundle compiled (not yet run) with the cache in `cacheDir`, if one was there. */
export interface V8CachedBundle {
  /** How the cache was met: `used` (V8 took it), `refused` (V8 would not: stale or damaged), `none`. */
  readonly cache: 'used' | 'refused' | 'none';
  /** Runs the bundle as a CommonJS module into `mod` (its `exports`). */
  run(mod: { exports: unknown; loaded?: boolean }, req?: NodeJS.Require): void;
  /** Writes the cache from what is compiled now. Best effort; a rename, so no one reads half a file. */
  write(): void;
}

/** Throws only when the bundle cannot be read or compiled (the caller may fall back to `require`). */
export function compileWithV8Cache(file: string, cacheDir: string): V8CachedBundle {
  const bytes = readFileSync(file);
  const id = createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(bytes).digest('hex');
  const base = path.basename(file);
  const cacheFile = path.join(cacheDir, `${base}.${id.slice(0, 32)}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // none yet: this process writes it
  }
  // The bundle's own `import()` calls resolve as they would under `require` (where Node offers that).
  const mainLoader = (vm.constants as Partial<typeof vm.constants> | undefined)?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  // An ASCII bundle (esbuild.mjs checks it) decodes on Node's fast path to a one-byte string.
  const script = new vm.Script(Module.wrap(bytes.toString('utf8')), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    ...(mainLoader !== undefined ? { importModuleDynamically: mainLoader } : {}),
  });
  const cache = !cachedData ? 'none' : script.cachedDataRejected ? 'refused' : 'used';
  return {
    cache,
    run(mod, req = createRequire(file)) {
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(mod.exports, mod.exports, req, mod, file, path.dirname(file));
      mod.loaded = true;
    },
    write() {
      try {
        mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, cacheFile);
        // Data for an older bundle or Node is never read again.
        for (const f of readdirSync(cacheDir))
          if (f.startsWith(`${base}.`) && f.endsWith('.v8') && path.join(cacheDir, f) !== cacheFile)
            rmSync(path.join(cacheDir, f), { force: true });
      } catch {
        // A full disk or a read-only folder: the next process compiles as before.
      }
    },
  };
}

/** A bundle required through the cache; `keep()` writes the cache once, unless V8 took one at load. */
export interface CachedRequire<T> {
  readonly exports: T;
  readonly cache: V8CachedBundle['cache'];
  keep(): void;
}

/**
 * `require(file)` through the cache in `cacheDir`; a plain `require` when the bundle cannot be compiled
 * that way (its own errors while running are its own, and thrown).
 */
function requireWithCodeCache<T>(file: string, cacheDir: string): CachedRequire<T> {
  let bundle: V8CachedBundle;
  try {
    bundle = compileWithV8Cache(file, cacheDir);
  } catch {
    return { exports: require(file) as T, cache: 'none', keep: () => undefined };
  }
  const mod = { exports: {} as unknown, filename: file, id: file, loaded: false };
  bundle.run(mod);
  let kept = bundle.cache === 'used';
  return {
    exports: mod.exports as T,
    cache: bundle.cache,
    keep() {
      if (kept) return;
      kept = true;
      bundle.write();
    },
  };
}

/** The bundles a process required through the cache (each once, as `require` does); `keep()` writes theirs. */
export class BundleCodeCaches {
  private readonly loaded = new Map<string, CachedRequire<unknown>>();

  constructor(private readonly cacheDir: string) {}

  require(file: string): unknown {
    let bundle = this.loaded.get(file);
    if (!bundle) {
      bundle = requireWithCodeCache(file, this.cacheDir);
      this.loaded.set(file, bundle);
    }
    return bundle.exports;
  }

  /** How `file`'s load met the cache (`none` when it was not loaded through here). */
  cacheOf(file: string): V8CachedBundle['cache'] {
    return this.loaded.get(file)?.cache ?? 'none';
  }

  keep(): void {
    for (const bundle of this.loaded.values()) bundle.keep();
  }
}
