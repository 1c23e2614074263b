// The plugin commands' quick picks: "Sextant: Plugins" lists each installed plugin with what it brings
// (commands, agents, skills, hooks, servers) and acts on one (enable, disable, update, remove);
// "Add Plugin Marketplace…" takes a folder, a git URL or GitHub's owner/repo; "Install Plugin…" picks a
// plugin of the added marketplaces and a scope. Installing never runs anything: the plugin's hooks and
// servers wait for approval on their cards in the chat view, as the workspace's own do.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import type { InstalledPlugin, PluginManager } from '../core/plugins/plugin-manager';
import type { PluginParts } from '../core/plugins/plugin-parts';
import type { PluginScope } from '../core/plugins/plugin-records';
import type { PluginSuggestions } from '../core/plugins/suggestions';
import { errorText } from '../core/util/error-text';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "1 command · 1 agent · 1 skill · 1 hook · 1 server" (what is there). */
export function bringsText(p: PluginParts): string {
  const c = p.counts;
  const parts = [
    plural(c.commands, 'command'),
    plural(c.agents, 'agent'),
    plural(c.skills, 'skill'),
    plural(c.hooks, 'hook'),
    plural(c.servers, 'MCP server'),
  ].filter((t) => !t.startsWith('0 '));
  return parts.join(' · ') || 'nothing Sextant loads';
}

const APPROVAL_NOTE = 'Its hooks and MCP servers run only once you approve them in the chat view.';

export class PluginPicks {
  constructor(
    private readonly manager: PluginManager,
    private readonly log: Logger,
  ) {}

  private async busy<T>(title: string, work: () => Promise<T>): Promise<T> {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, work);
  }

  /** Sextant: Plugins. */
  async show(): Promise<void> {
    type Item = vscode.QuickPickItem & { plugin?: InstalledPlugin; run?: () => Promise<void> };
    const items: Item[] = this.manager.installed().map((plugin) => {
      const r = plugin.record;
      const state = r.enabled ? 'enabled' : 'disabled';
      return {
        label: `$(extensions) ${plugin.id}`,
        description: [r.version && `v${r.version}`, r.scope === 'user' ? 'user' : 'this workspace', state]
          .filter(Boolean)
          .join(' · '),
        detail: plugin.load.ok
          ? [bringsText(plugin.load.plugin), ...plugin.load.plugin.problems.slice(0, 1)].join(' — ')
          : `$(error) ${plugin.load.problem}`,
        plugin,
      };
    });
    items.push(
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(add) Install Plugin…', run: () => this.install() },
      { label: '$(repo) Add Plugin Marketplace…', run: () => this.addMarketplace() },
    );
    const pick = await vscode.window.showQuickPick(items, {
      title: 'Sextant: Plugins',
      placeHolder: items.length > 3 ? 'Pick a plugin to enable, disable, update or remove it' : 'No plugin installed',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (pick?.run) return pick.run();
    if (pick?.plugin) return this.act(pick.plugin);
  }

  private async act(plugin: InstalledPlugin): Promise<void> {
    const { record, id } = plugin;
    const toggle = record.enabled ? 'Disable' : 'Enable';
    const action = await vscode.window.showQuickPick([toggle, 'Update', 'Remove'], { title: `Sextant: ${id}` });
    const scope = record.scope;
    if (action === toggle) await this.manager.setEnabled(id, scope, !record.enabled);
    if (action === 'Update') {
      const r = await this.busy(`Sextant: updating ${id}…`, () => this.manager.update(id, scope));
      const versions = r.from !== r.to ? ` (${r.from ?? '?'} → ${r.to ?? '?'})` : '';
      void vscode.window.showInformationMessage(
        `Sextant: ${id} updated${versions}. If its hooks or servers changed, they ask for approval again.`,
      );
    }
    if (action === 'Remove') {
      const yes = 'Remove';
      const sure = await vscode.window.showWarningMessage(`Remove the plugin ${id}?`, { modal: true }, yes);
      if (sure === yes) await this.manager.remove(id, scope);
    }
  }

  /** Sextant: Add Plugin Marketplace…; then offers to install one of its plugins. */
  async addMarketplace(source?: string): Promise<void> {
    const typed =
      source ??
      (await vscode.window.showInputBox({
        title: 'Sextant: Add Plugin Marketplace',
        prompt: 'A folder, a git URL, or a GitHub owner/repo (Claude Code marketplaces and plugin folders)',
        placeHolder: 'acme/claude-plugins',
        ignoreFocusOut: true,
      }));
    if (!typed?.trim()) return;
    const record = await this.busy(`Sextant: adding the marketplace ${typed.trim()}…`, () =>
      this.manager.addMarketplace(typed),
    );
    this.log.info(`plugins: marketplace ${record.name} added from ${record.source}`);
    const count = this.manager.available().plugins.filter((p) => p.marketplace === record.name).length;
    const install = 'Install a Plugin…';
    const pick = await vscode.window.showInformationMessage(
      `Sextant: marketplace ${record.name} added (${plural(count, 'plugin')}).`,
      install,
    );
    if (pick === install) await this.install(record.name);
  }

  /** Sextant: Install Plugin…, optionally from one marketplace. */
  async install(marketplace?: string): Promise<void> {
    const { plugins, problems } = this.manager.available();
    for (const p of problems) this.log.warn(`plugins: ${p}`);
    const installed = new Set(this.manager.installed().map((p) => p.id));
    const offered = plugins.filter((p) => !marketplace || p.marketplace === marketplace);
    if (!offered.length) {
      const add = 'Add Plugin Marketplace…';
      const pick = await vscode.window.showInformationMessage('Sextant: no marketplace lists a plugin yet.', add);
      if (pick === add) await this.addMarketplace();
      return;
    }
    const pick = await vscode.window.showQuickPick(
      offered.map((p) => ({
        label: p.id,
        description: [p.entry.version && `v${p.entry.version}`, installed.has(p.id) && 'installed']
          .filter(Boolean)
          .join(' · '),
        detail: p.entry.description,
        id: p.id,
      })),
      { title: 'Sextant: Install Plugin', matchOnDetail: true },
    );
    if (!pick) return;
    const scope = await this.pickScope();
    if (!scope) return;
    await this.installOne(pick.id, scope);
  }

  private async pickScope(): Promise<PluginScope | undefined> {
    const items: Array<vscode.QuickPickItem & { scope: PluginScope }> = [
      { label: 'For me', description: 'in every workspace', scope: 'user' },
      ...(vscode.workspace.workspaceFolders?.length
        ? [{ label: 'For this workspace', description: 'only here', scope: 'workspace' as const }]
        : []),
    ];
    return (await vscode.window.showQuickPick(items, { title: 'Sextant: install the plugin…' }))?.scope;
  }

  private async installOne(id: string, scope: PluginScope): Promise<void> {
    const parts = await this.busy(`Sextant: installing ${id}…`, () => this.manager.install(id, scope));
    this.log.info(`plugins: ${id} installed (${scope}): ${bringsText(parts)}`);
    const runs = parts.counts.hooks + parts.counts.servers > 0;
    void vscode.window.showInformationMessage(
      `Sextant: ${id} installed — ${bringsText(parts)}.${runs ? ` ${APPROVAL_NOTE}` : ''}`,
    );
  }

  /** What a workspace's .claude/settings.json suggests: only the picked ones are added and installed. */
  async reviewSuggestions(s: PluginSuggestions): Promise<void> {
    type Item = vscode.QuickPickItem & { marketplace?: { name: string; source: string }; plugin?: string };
    const items: Item[] = [
      ...s.marketplaces.map((m) => ({ label: `$(repo) ${m.name}`, detail: m.source, marketplace: m })),
      ...s.plugins.map((p) => ({ label: `$(extensions) ${p}`, description: 'for this workspace', plugin: p })),
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Sextant: plugins this workspace suggests',
      placeHolder: 'Pick what to add and install (sources are shown; nothing runs before its approval)',
      canPickMany: true,
    });
    if (!picked?.length) return;
    for (const m of picked.flatMap((p) => (p.marketplace ? [p.marketplace] : []))) {
      try {
        await this.busy(`Sextant: adding ${m.name}…`, () => this.manager.addMarketplace(m.source));
      } catch (err) {
        void vscode.window.showErrorMessage(`Sextant: marketplace ${m.name}: ${errorText(err)}`);
      }
    }
    for (const id of picked.flatMap((p) => (p.plugin ? [p.plugin] : []))) {
      try {
        await this.installOne(id, vscode.workspace.workspaceFolders?.length ? 'workspace' : 'user');
      } catch (err) {
        void vscode.window.showErrorMessage(`Sextant: ${id}: ${errorText(err)}`);
      }
    }
  }
}
