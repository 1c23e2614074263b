// The plugins of this window: the marketplaces the user added, the plugins installed for the user and
// for this workspace, and what the enabled ones bring, in the shapes the existing loaders read —
// command, agent and skill folders (ProjectFiles.plugins), hooks (HookSettings.setPlugins) and MCP
// servers (ServerSources.plugins). Nothing here runs anything: a plugin's hooks and servers wait for the
// user's approval like the workspace's own, bound to a hash that covers the plugin's files.
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import type { HookSource } from '../extensions/hooks/config';
import type { PluginFolders } from '../extensions/project-files';
import type { McpConfigSource } from '../mcp/config';
import type { KeyValueStore } from '../mcp/trust-store';
import type { GitRunner } from './git';
import type { MarketplaceEntry } from './marketplace';
import { Marketplaces } from './marketplaces';
import { loadPluginParts, type PluginLoad, type PluginParts } from './plugin-parts';
import { entryManifest, fetchPlugin } from './plugin-installer';
import { type InstallRecord, pluginId, PluginRecords, type PluginScope } from './plugin-records';

export interface PluginManagerDeps {
  git: GitRunner;
  /** Sextant's storage: the user's (global) and this workspace's (undefined without a folder). */
  storage: { user: string; workspace?: string };
  /** Where the records are kept: global state, workspace state. */
  state: Record<PluginScope, KeyValueStore>;
  /** The folder a relative marketplace path is read from (the workspace's). */
  cwd(): string | undefined;
}

export interface InstalledPlugin {
  record: InstallRecord;
  id: string;
  load: PluginLoad;
}

export interface AvailablePlugin {
  marketplace: string;
  entry: MarketplaceEntry;
  id: string;
}

export class PluginManager {
  readonly records: PluginRecords;
  readonly marketplaces: Marketplaces;
  private cache?: InstalledPlugin[];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly o: PluginManagerDeps) {
    this.records = new PluginRecords(o.state);
    this.marketplaces = new Marketplaces({ git: o.git, userStorage: o.storage.user, records: this.records });
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Reads the installed plugins again (after a change, or when their files may have changed). */
  reload(): void {
    this.cache = undefined;
    for (const l of [...this.listeners]) l();
  }

  async addMarketplace(source: string) {
    const record = await this.marketplaces.add(source, this.o.cwd());
    this.reload();
    return record;
  }

  async removeMarketplace(name: string): Promise<void> {
    await this.marketplaces.remove(name);
    this.reload();
  }

  /** Every plugin the added marketplaces list; a marketplace that cannot be read is a problem. */
  available(): { plugins: AvailablePlugin[]; problems: string[] } {
    const plugins: AvailablePlugin[] = [];
    const problems: string[] = [];
    for (const m of this.marketplaces.list()) {
      try {
        for (const entry of this.marketplaces.read(m.name).plugins)
          plugins.push({ marketplace: m.name, entry, id: pluginId({ name: entry.name, marketplace: m.name }) });
      } catch (err) {
        problems.push(`marketplace ${m.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return { plugins, problems };
  }

  private storageOf(scope: PluginScope): string {
    const dir = scope === 'user' ? this.o.storage.user : this.o.storage.workspace;
    if (!dir) throw new Error('open a folder to install a plugin for this workspace');
    return path.join(dir, 'plugins', 'installed');
  }

  private entryOf(id: string): { marketplace: string; entry: MarketplaceEntry; pluginRoot?: string } {
    const at = id.lastIndexOf('@');
    if (at <= 0) throw new Error(`"${id}" is not a plugin id; write plugin@marketplace`);
    const name = id.slice(0, at);
    const marketplace = id.slice(at + 1);
    const m = this.marketplaces.read(marketplace);
    const entry = m.plugins.find((p) => p.name === name);
    if (!entry) throw new Error(`the marketplace "${marketplace}" lists no plugin "${name}"`);
    return { marketplace, entry, ...(m.metadata?.pluginRoot ? { pluginRoot: m.metadata.pluginRoot } : {}) };
  }

  /** Installs (or reinstalls) `plugin@marketplace` for the user or this workspace, enabled. */
  async install(id: string, scope: PluginScope): Promise<PluginParts> {
    const { marketplace, entry, pluginRoot } = this.entryOf(id);
    const record = this.records.marketplace(marketplace);
    if (!record) throw new Error(`there is no marketplace "${marketplace}"`);
    const dir = await fetchPlugin(this.o.git, record, entry, pluginRoot, this.storageOf(scope));
    const load = loadPluginParts(dir, entryManifest(entry));
    if (!load.ok) throw new Error(load.problem);
    const previous = this.records.find(id, scope);
    await this.records.put({
      name: entry.name,
      marketplace,
      scope,
      enabled: previous?.enabled ?? true,
      dir,
      ...(load.plugin.version ? { version: load.plugin.version } : {}),
      entry: entryManifest(entry),
    });
    this.reload();
    return load.plugin;
  }

  /**
   * Fetches the marketplace's newest state (a git pull) and installs the plugin again. Whether its hooks
   * and servers changed is the approvals' business: their hash covers the plugin's files.
   */
  async update(id: string, scope: PluginScope): Promise<{ from?: string; to?: string }> {
    const current = this.records.find(id, scope);
    if (!current) throw new Error(`"${id}" is not installed for ${scope === 'user' ? 'you' : 'this workspace'}`);
    await this.marketplaces.update(current.marketplace);
    const parts = await this.install(id, scope);
    return { ...(current.version ? { from: current.version } : {}), ...(parts.version ? { to: parts.version } : {}) };
  }

  async setEnabled(id: string, scope: PluginScope, enabled: boolean): Promise<void> {
    const current = this.records.find(id, scope);
    if (!current) throw new Error(`"${id}" is not installed`);
    await this.records.put({ ...current, enabled });
    this.reload();
  }

  async remove(id: string, scope: PluginScope): Promise<void> {
    const current = this.records.find(id, scope);
    if (!current) return;
    await this.records.drop(id, scope);
    rmSync(current.dir, { recursive: true, force: true });
    this.reload();
  }

  /** Every installed plugin with what it brings (or why nothing of it loads). */
  installed(): InstalledPlugin[] {
    this.cache ??= this.records.installed().map((record) => ({
      record,
      id: pluginId(record),
      load: loadPluginParts(record.dir, record.entry),
    }));
    return this.cache;
  }

  /** The enabled plugins that load, one per name (this workspace's install before the user's). */
  enabled(): PluginParts[] {
    const out = new Map<string, PluginParts>();
    for (const p of this.installed())
      if (p.record.enabled && p.load.ok && !out.has(p.load.plugin.name)) out.set(p.load.plugin.name, p.load.plugin);
    return [...out.values()];
  }

  problems(): string[] {
    const out: string[] = [];
    for (const p of this.installed()) {
      if (!p.record.enabled) continue;
      if (!p.load.ok) out.push(`plugin ${p.id}: ${p.load.problem}`);
      else out.push(...p.load.plugin.problems.map((x) => `plugin ${p.id}: ${x}`));
    }
    return out;
  }

  /** For ProjectFiles.plugins: the command, agent and skill folders of the enabled plugins. */
  folders(): PluginFolders[] {
    return this.enabled().map((p) => ({
      name: p.name,
      root: p.root,
      commands: p.commands,
      agents: p.agents,
      skills: p.skills,
    }));
  }

  /** For HookSettings.setPlugins. */
  hooks(): HookSource {
    return { hooks: this.enabled().flatMap((p) => p.hooks), problems: [] };
  }

  /** For ServerSources.plugins: each server with its plugin's digest. */
  servers(): McpConfigSource & { digests: Record<string, string> } {
    const servers: McpConfigSource['servers'] = {};
    const digests: Record<string, string> = {};
    for (const p of this.enabled())
      for (const [name, config] of Object.entries(p.servers)) {
        servers[name] = config;
        digests[name] = p.digest;
      }
    return { servers, problems: [], digests };
  }
}
