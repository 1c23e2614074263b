// What the user added and installed, kept by the host: the marketplaces (the user's, in global state) and
// the installed plugins of each scope — the user's (global state) and this workspace's (workspace state).
// Only these records install or enable anything: a workspace's `.claude/settings.json` merely suggests.
import type { KeyValueStore } from '../mcp/trust-store';
import type { PluginManifest } from './manifest';

export type PluginScope = 'user' | 'workspace';

export interface MarketplaceRecord {
  name: string;
  /** As the user typed it (a folder, a git URL, `owner/repo`). */
  source: string;
  /** `folder`: read in place; `git`: a clone in Sextant's storage; `plugin`: one plugin folder. */
  kind: 'folder' | 'git';
  /** The marketplace's folder (the clone, for git). */
  dir: string;
  url?: string;
  /** The folder holds one plugin (`.claude-plugin/plugin.json`) rather than a marketplace.json. */
  single?: boolean;
}

export interface InstallRecord {
  name: string;
  marketplace: string;
  scope: PluginScope;
  enabled: boolean;
  /** The installed copy. */
  dir: string;
  version?: string;
  /** Its marketplace entry's fields, which stand for a plugin.json the plugin does not have. */
  entry?: PluginManifest;
}

export const pluginId = (r: { name: string; marketplace: string }) => `${r.name}@${r.marketplace}`;

const MARKETPLACES = 'sextant.plugins.marketplaces';
const INSTALLED = 'sextant.plugins.installed';

export class PluginRecords {
  constructor(private readonly state: Record<PluginScope, KeyValueStore>) {}

  marketplaces(): MarketplaceRecord[] {
    const v = this.state.user.get(MARKETPLACES);
    return Array.isArray(v) ? (v as MarketplaceRecord[]) : [];
  }

  marketplace(name: string): MarketplaceRecord | undefined {
    return this.marketplaces().find((m) => m.name === name);
  }

  async putMarketplace(record: MarketplaceRecord): Promise<void> {
    await this.state.user.update(MARKETPLACES, [...this.marketplaces().filter((m) => m.name !== record.name), record]);
  }

  async dropMarketplace(name: string): Promise<void> {
    await this.state.user.update(
      MARKETPLACES,
      this.marketplaces().filter((m) => m.name !== name),
    );
  }

  /** The workspace's installs first: for a plugin in both scopes, this workspace's choice wins. */
  installed(): InstallRecord[] {
    return [...this.of('workspace'), ...this.of('user')];
  }

  of(scope: PluginScope): InstallRecord[] {
    const v = this.state[scope].get(INSTALLED);
    return Array.isArray(v) ? (v as InstallRecord[]).map((r) => ({ ...r, scope })) : [];
  }

  find(id: string, scope: PluginScope): InstallRecord | undefined {
    return this.of(scope).find((r) => pluginId(r) === id);
  }

  async put(record: InstallRecord): Promise<void> {
    const others = this.of(record.scope).filter((r) => pluginId(r) !== pluginId(record));
    await this.state[record.scope].update(INSTALLED, [...others, record]);
  }

  async drop(id: string, scope: PluginScope): Promise<void> {
    await this.state[scope].update(
      INSTALLED,
      this.of(scope).filter((r) => pluginId(r) !== id),
    );
  }
}
