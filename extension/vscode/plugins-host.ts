// Claude Code plugins in this window: the manager (core/plugins) over Sextant's storage — clones and
// installed copies in globalStorage (the user's) or the workspace's storage — with its records in global
// and workspace state, fed into the loaders that already exist: the command, agent and skill folders
// through ProjectFiles, the hooks into the hook settings (approved on the workspace's hooks card), the
// servers into the MCP host (approved on their cards). A workspace's `.claude/settings.json` may suggest
// marketplaces and plugins: a notice offers them, and only what the user picks is added or installed.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { HookSettings } from '../core/extensions/hooks/hook-settings';
import type { Logger } from '../core/ports';
import { systemGit } from '../core/plugins/git';
import { PluginManager } from '../core/plugins/plugin-manager';
import { pluginSuggestions } from '../core/plugins/suggestions';
import type { McpHost } from './mcp-host';
import { PluginPicks } from './plugins-picks';

export interface RuntimePlugins extends vscode.Disposable {
  manager: PluginManager;
  /** Sextant: Plugins, Add Plugin Marketplace…, Install Plugin…. */
  picks: PluginPicks;
  /** Feeds the enabled plugins' hooks and servers in now and after every change. */
  connect(o: { hooks: HookSettings; mcp: McpHost }): void;
}

const SUGGESTIONS_SEEN = 'sextant.plugins.suggestionsSeen';

export function createRuntimePlugins(o: { context: vscode.ExtensionContext; log: Logger }): RuntimePlugins {
  const folder = () => vscode.workspace.workspaceFolders?.[0]?.uri;
  const manager = new PluginManager({
    git: systemGit,
    storage: { user: o.context.globalStorageUri.fsPath, workspace: o.context.storageUri?.fsPath },
    state: { user: o.context.globalState, workspace: o.context.workspaceState },
    cwd: () => (folder()?.scheme === 'file' ? folder()?.fsPath : undefined),
  });
  const picks = new PluginPicks(manager, o.log);
  let reported = '';
  const subscriptions: vscode.Disposable[] = [];
  const connect = ({ hooks, mcp }: { hooks: HookSettings; mcp: McpHost }) => {
    const feed = () => {
      hooks.setPlugins(manager.hooks());
      mcp.setPluginServers(manager.servers());
      const problems = manager.problems();
      if (problems.join('\n') !== reported) for (const p of problems) o.log.warn(`plugins: ${p}`);
      reported = problems.join('\n');
    };
    const off = manager.onDidChange(feed);
    subscriptions.push({ dispose: off });
    feed();
    void offerSuggestions();
  };

  /** Once per set of suggestions: a notice, and a pick of what to add and install for this workspace. */
  const offerSuggestions = async () => {
    const root = folder();
    if (!root || !vscode.workspace.isTrusted) return;
    let text: string | undefined;
    try {
      text = new TextDecoder().decode(
        await vscode.workspace.fs.readFile(vscode.Uri.joinPath(root, '.claude/settings.json')),
      );
    } catch {
      return;
    }
    const s = pluginSuggestions(text, {
      marketplaces: manager.marketplaces.list().map((m) => m.name),
      installed: manager.installed().map((p) => p.id),
    });
    if (!s.marketplaces.length && !s.plugins.length) return;
    const key = createHash('sha256').update(JSON.stringify(s)).digest('hex');
    if (o.context.workspaceState.get(SUGGESTIONS_SEEN) === key) return;
    const what = [...s.marketplaces.map((m) => `marketplace ${m.name}`), ...s.plugins.map((p) => `plugin ${p}`)];
    const review = 'Review…';
    const later = 'Not now';
    const pick = await vscode.window.showInformationMessage(
      `Sextant: this workspace's .claude/settings.json suggests ${what.join(', ')}. ` +
        'Nothing is installed unless you pick it.',
      review,
      later,
    );
    if (pick === later) await o.context.workspaceState.update(SUGGESTIONS_SEEN, key);
    if (pick === review) {
      await o.context.workspaceState.update(SUGGESTIONS_SEEN, key);
      await picks.reviewSuggestions(s);
    }
  };

  return {
    manager,
    picks,
    connect,
    dispose: () => {
      for (const d of subscriptions.splice(0)) d.dispose();
    },
  };
}
