// Fetching one plugin of a marketplace into Sextant's storage: from a folder of the marketplace (never
// outside it), or a git repository cloned with the real `git`. The copy is checked before it replaces
// the installed one: a plugin whose plugin.json cannot be read is refused with the file's line and
// column, and an update that brings one leaves the installed copy as it was.
import { cpSync, mkdirSync, renameSync, rmSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { cloneRepository, type GitRunner } from './git';
import type { MarketplaceEntry } from './marketplace';
import { resolveSource } from './marketplace';
import type { PluginManifest } from './manifest';
import { loadPluginParts } from './plugin-parts';
import type { MarketplaceRecord } from './plugin-records';

const inside = (parent: string, child: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The entry's fields that can stand for a plugin.json (everything but where it comes from). */
export function entryManifest(entry: MarketplaceEntry): PluginManifest {
  const { source: _source, strict: _strict, category: _category, ...manifest } = entry;
  return manifest;
}

/**
 * Copies the entry's plugin into `installedRoot/<marketplace>/<plugin>` (replacing what was there only
 * once the new copy reads), and returns that folder.
 */
export async function fetchPlugin(
  git: GitRunner,
  marketplace: MarketplaceRecord,
  entry: MarketplaceEntry,
  pluginRoot: string | undefined,
  installedRoot: string,
): Promise<string> {
  const staging = path.join(installedRoot, `.incoming-${process.pid}-${Date.now()}`);
  mkdirSync(staging, { recursive: true });
  try {
    let from: string;
    if (marketplace.single) from = marketplace.dir;
    else {
      const source = resolveSource(entry.source, pluginRoot);
      if (source.kind === 'folder') {
        from = path.resolve(marketplace.dir, source.relative);
        if (!inside(marketplace.dir, from))
          throw new Error(`the source of "${entry.name}" (${source.relative}) is outside its marketplace's folder`);
      } else {
        const clone = path.join(staging, 'clone');
        await cloneRepository(git, source.url, clone, source.ref);
        from = source.path ? path.resolve(clone, source.path) : clone;
        if (!inside(clone, from)) throw new Error(`the path of "${entry.name}" is outside its repository`);
      }
    }
    if (!existsSync(from)) throw new Error(`the plugin "${entry.name}" is not at ${from}`);
    const copy = path.join(staging, entry.name);
    // Links are copied as links (never followed out of the plugin); the git history is not needed.
    cpSync(from, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => path.basename(src) !== '.git' });
    const checked = loadPluginParts(copy, entryManifest(entry));
    if (!checked.ok) throw new Error(checked.problem);
    const target = path.join(installedRoot, marketplace.name, entry.name);
    mkdirSync(path.dirname(target), { recursive: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(copy, target);
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
