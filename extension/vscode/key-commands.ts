// "Sextant: Set API Key" / "Clear API Key": keys go to SecretStorage only, never to settings or logs.
import * as vscode from 'vscode';
import type { SecretsPort } from '../core/ports';
import { secretKeyName } from '../core/providers/keys';
import type { ProviderConfig } from '../core/providers/types';

export class KeyCommands {
  constructor(
    private readonly secrets: SecretsPort,
    private readonly configs: () => ProviderConfig[],
    private readonly changed: () => void,
  ) {}

  private async pickProvider(title: string, onlyWithKey: boolean): Promise<ProviderConfig | undefined> {
    const candidates: Array<{ config: ProviderConfig; stored: boolean }> = [];
    for (const config of this.configs()) {
      if (config.keyless) continue;
      const stored = Boolean(await this.secrets.get(secretKeyName(config.name)));
      if (!onlyWithKey || stored) candidates.push({ config, stored });
    }
    if (!candidates.length) {
      void vscode.window.showInformationMessage(
        onlyWithKey ? 'Sextant: no API key is stored.' : 'Sextant: no provider needs a key.',
      );
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      candidates.map(({ config, stored }) => ({
        label: config.name,
        description: [config.label, stored ? 'key stored' : config.apiKeyEnv ? `or set $${config.apiKeyEnv}` : '']
          .filter(Boolean)
          .join(' — '),
        config,
      })),
      { title },
    );
    return pick?.config;
  }

  async setApiKey(): Promise<void> {
    const config = await this.pickProvider('Sextant: Set API Key — which provider?', false);
    if (!config) return;
    const key = await vscode.window.showInputBox({
      title: `API key for ${config.name}`,
      prompt: "Stored in VS Code's SecretStorage (the OS keychain), never in settings.",
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'The key cannot be empty.'),
    });
    if (!key) return;
    await this.secrets.set(secretKeyName(config.name), key.trim());
    void vscode.window.showInformationMessage(`Sextant: API key for ${config.name} saved.`);
    this.changed();
  }

  async clearApiKey(): Promise<void> {
    const config = await this.pickProvider('Sextant: Clear API Key — which provider?', true);
    if (!config) return;
    await this.secrets.delete(secretKeyName(config.name));
    void vscode.window.showInformationMessage(`Sextant: API key for ${config.name} removed.`);
    this.changed();
  }
}
