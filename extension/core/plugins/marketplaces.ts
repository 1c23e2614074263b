// Adding, reading, updating and removing marketplaces. A local folder is read in place (an edit counts
// at the next look); a git URL or GitHub's `owner/repo` is cloned with the real `git` into Sextant's
// storage and updated with a fetch. A folder that holds one plugin (`.claude-plugin/plugin.json`) rather
// than a marketplace is a marketplace of that one plugin, named after it.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { classifySource, cloneRepository, type GitRunner, pullRepository } from './git';
import { MANIFEST_PATH, parseManifest, type PluginManifest } from './manifest';
import { type Marketplace, MARKETPLACE_PATH, type MarketplaceEntry, parseMarketplace } from './marketplace';
import type { MarketplaceRecord, PluginRecords } from './plugin-records';

export interface MarketplaceDeps {
  git: GitRunner;
  /** Sextant's own storage for the user (clones go under `plugins/marketplaces/`). */
  userStorage: string;
  records: PluginRecords;
}

const isFolder = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The marketplace in a folder, or the one plugin a plugin folder is; a problem with its position. */
export function readMarketplaceFolder(
  dir: string,
): { ok: true; value: Marketplace; single: boolean } | { ok: false; problem: string } {
  const file = path.join(dir, MARKETPLACE_PATH);
  if (existsSync(file)) {
    const read = parseMarketplace(readFileSync(file, 'utf8'), `${path.basename(dir)}/${MARKETPLACE_PATH}`);
    return read.ok ? { ok: true, value: read.value, single: false } : read;
  }
  const manifest = path.join(dir, MANIFEST_PATH);
  if (existsSync(manifest)) {
    const read = parseManifest(readFileSync(manifest, 'utf8'), `${path.basename(dir)}/${MANIFEST_PATH}`);
    if (!read.ok) return read;
    const entry: MarketplaceEntry = { ...(read.value as PluginManifest), source: './' };
    return { ok: true, value: { name: read.value.name, owner: 'local', plugins: [entry] }, single: true };
  }
  return {
    ok: false,
    problem: `${dir} has neither ${MARKETPLACE_PATH} (a marketplace) nor ${MANIFEST_PATH} (a plugin)`,
  };
}

export class Marketplaces {
  constructor(private readonly o: MarketplaceDeps) {}

  list(): MarketplaceRecord[] {
    return this.o.records.marketplaces();
  }

  /** Its plugins as listed now (a folder's file is read afresh). */
  read(name: string): Marketplace {
    const record = this.o.records.marketplace(name);
    if (!record) throw new Error(`there is no marketplace "${name}"; add it first`);
    const read = readMarketplaceFolder(record.dir);
    if (!read.ok) throw new Error(read.problem);
    return read.value;
  }

  /** Adds a marketplace from a folder, a git URL or `owner/repo`; the name is the marketplace's own. */
  async add(sourceText: string, cwd: string | undefined): Promise<MarketplaceRecord> {
    const source = sourceText.trim();
    if (!source) throw new Error('give a folder, a git URL or a GitHub owner/repo');
    const expand = (p: string) => (p.startsWith('~/') ? path.join(homedir(), p.slice(2)) : p);
    const resolve = (p: string) => path.resolve(cwd ?? process.cwd(), expand(p));
    const kind = classifySource(source, (p) => isFolder(resolve(p)));
    if (kind.kind === 'folder') {
      const dir = resolve(kind.path);
      if (!isFolder(dir)) throw new Error(`${dir} is not a folder`);
      const read = readMarketplaceFolder(dir);
      if (!read.ok) throw new Error(read.problem);
      const record: MarketplaceRecord = { name: read.value.name, source, kind: 'folder', dir, single: read.single };
      await this.put(record);
      return record;
    }
    const root = path.join(this.o.userStorage, 'plugins', 'marketplaces');
    mkdirSync(root, { recursive: true });
    const incoming = path.join(root, `.incoming-${process.pid}-${Date.now()}`);
    try {
      await cloneRepository(this.o.git, kind.url, incoming);
      const read = readMarketplaceFolder(incoming);
      if (!read.ok) throw new Error(`${kind.url}: ${read.problem.replace(incoming, 'the repository')}`);
      const dir = path.join(root, read.value.name);
      const existing = this.o.records.marketplace(read.value.name);
      if (existing && existing.dir !== dir)
        throw new Error(`a marketplace named "${read.value.name}" is already added`);
      rmSync(dir, { recursive: true, force: true });
      renameSync(incoming, dir);
      const record: MarketplaceRecord = {
        name: read.value.name,
        source,
        kind: 'git',
        dir,
        url: kind.url,
        single: read.single,
      };
      await this.put(record);
      return record;
    } finally {
      rmSync(incoming, { recursive: true, force: true });
    }
  }

  private async put(record: MarketplaceRecord): Promise<void> {
    const existing = this.o.records.marketplace(record.name);
    if (existing && existing.dir !== record.dir)
      throw new Error(`a marketplace named "${record.name}" is already added (from ${existing.source})`);
    await this.o.records.putMarketplace(record);
  }

  /** A git marketplace fetches its newest commit; a folder is read in place and needs nothing. */
  async update(name: string): Promise<void> {
    const record = this.o.records.marketplace(name);
    if (!record) throw new Error(`there is no marketplace "${name}"`);
    if (record.kind === 'git') await pullRepository(this.o.git, record.dir);
    const read = readMarketplaceFolder(record.dir);
    if (!read.ok) throw new Error(read.problem);
  }

  /** Forgets it (and deletes its clone); its installed plugins stay until removed. */
  async remove(name: string): Promise<void> {
    const record = this.o.records.marketplace(name);
    if (!record) return;
    await this.o.records.dropMarketplace(name);
    if (record.kind === 'git') rmSync(record.dir, { recursive: true, force: true });
  }
}
