// "Sextant: Set Search API Key" / "Clear Search API Key": a key for Exa, Tavily, Brave or Firecrawl
// goes to SecretStorage only (never settings or logs), bound to the origin its requests go to now —
// the provider's own server, or the sextant.research.endpoints override from user settings
// (core/web/search/keys.ts asks before it goes anywhere else).
import * as vscode from 'vscode';
import type { SecretsPort } from '../core/ports';
import { originOf } from '../core/providers/key-binding';
import { SEARCH_APIS } from '../core/web/search/catalog';
import { searchKeyBindingName, searchKeySecretName } from '../core/web/search/keys';
import type { SearchSettings } from '../core/web/search/settings';
import { SEARCH_PROVIDER_IDS, type SearchProviderId } from '../core/web/types';

export class SearchKeyCommands {
  constructor(
    private readonly secrets: SecretsPort,
    private readonly settings: () => SearchSettings,
    private readonly env: Record<string, string | undefined>,
    private readonly changed: () => void,
  ) {}

  private async pick(title: string, onlyStored: boolean): Promise<SearchProviderId | undefined> {
    const { providers } = this.settings();
    const items: Array<vscode.QuickPickItem & { id: SearchProviderId }> = [];
    for (const id of SEARCH_PROVIDER_IDS) {
      const api = SEARCH_APIS[id];
      const stored = Boolean(await this.secrets.get(searchKeySecretName(id)));
      if (onlyStored && !stored) continue;
      const fromEnv = Boolean(this.env[api.envVar]?.trim());
      items.push({
        id,
        label: api.label,
        description: [
          stored ? 'key stored' : fromEnv ? `using $${api.envVar}` : `or set $${api.envVar}`,
          providers.includes(id) ? '' : 'not in sextant.research.searchProviders',
        ]
          .filter(Boolean)
          .join(' — '),
        detail: onlyStored ? undefined : `Get a key: ${api.keyUrl}`,
      });
    }
    if (!items.length) {
      void vscode.window.showInformationMessage('Sextant: no search API key is stored.');
      return undefined;
    }
    return (await vscode.window.showQuickPick(items, { title }))?.id;
  }

  async setSearchApiKey(): Promise<void> {
    const id = await this.pick('Sextant: Set Search API Key — which provider?', false);
    if (!id) return;
    const api = SEARCH_APIS[id];
    const key = await vscode.window.showInputBox({
      title: `${api.label} API key`,
      prompt: "Stored in VS Code's SecretStorage (the OS keychain), never in settings.",
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'The key cannot be empty.'),
    });
    if (!key) return;
    // The binding first: a key must never be stored without the server it is meant for.
    const origin = originOf(this.settings().endpoints[id] ?? api.defaultBaseUrl);
    const binding = searchKeyBindingName(id, { source: 'stored' });
    if (origin) await this.secrets.set(binding, origin);
    else await this.secrets.delete(binding);
    await this.secrets.set(searchKeySecretName(id), key.trim());
    void vscode.window.showInformationMessage(`Sextant: ${api.label} search key saved.`);
    this.changed();
  }

  async clearSearchApiKey(): Promise<void> {
    const id = await this.pick('Sextant: Clear Search API Key — which provider?', true);
    if (!id) return;
    await this.secrets.delete(searchKeySecretName(id));
    await this.secrets.delete(searchKeyBindingName(id, { source: 'stored' }));
    void vscode.window.showInformationMessage(`Sextant: ${SEARCH_APIS[id].label} search key removed.`);
    this.changed();
  }
}
