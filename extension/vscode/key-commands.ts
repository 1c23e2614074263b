// "Sextant: Set API Key" / "Clear API Key": keys go to SecretStorage only, never to settings or logs.
// Each stored key is bound to the origin its provider's base URL had when it was stored
// (core/providers/key-binding.ts); confirmKeyDestination asks before it goes anywhere else.
import * as vscode from 'vscode';
import type { SecretsPort } from '../core/ports';
import {
  destinationOf,
  keyBindingName,
  originOf,
  type KeyDestinationAnswer,
  type KeyDestinationQuestion,
} from '../core/providers/key-binding';
import { secretKeyName } from '../core/providers/keys';
import type { ProviderConfig } from '../core/providers/types';
import { markWalkthroughStep } from './walkthrough';

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
    // The binding first: a key must never be stored without the server it is meant for.
    const binding = keyBindingName(config.name, { source: 'stored' });
    const origin = originOf(destinationOf(config));
    if (origin) await this.secrets.set(binding, origin);
    else await this.secrets.delete(binding);
    await this.secrets.set(secretKeyName(config.name), key.trim());
    void vscode.window.showInformationMessage(`Sextant: API key for ${config.name} saved.`);
    markWalkthroughStep('modelReady');
    this.changed();
  }

  async clearApiKey(): Promise<void> {
    const config = await this.pickProvider('Sextant: Clear API Key — which provider?', true);
    if (!config) return;
    await this.secrets.delete(secretKeyName(config.name));
    await this.secrets.delete(keyBindingName(config.name, { source: 'stored' }));
    void vscode.window.showInformationMessage(`Sextant: API key for ${config.name} removed.`);
    this.changed();
  }
}

/**
 * The modal question before a key goes to a server it is not bound to. Closing the dialog (or
 * Cancel) is "no": nothing is sent.
 */
export async function confirmKeyDestination(q: KeyDestinationQuestion): Promise<KeyDestinationAnswer> {
  const once = 'Send once';
  const always = 'Always for this host';
  const belongs =
    q.source === 'env'
      ? `It belongs to ${q.boundHost} (environment variable ${q.envName ?? '?'}).`
      : `It was stored for ${q.boundHost}.`;
  const pick = await vscode.window.showWarningMessage(
    `Send your ${q.provider} API key to ${q.host}? ${belongs}`,
    {
      modal: true,
      detail:
        `A setting now sends "${q.provider}" requests to ${q.host}. Only send the key if you trust that ` +
        `server: whoever runs it can use your ${q.provider} account. "Always for this host" binds the key ` +
        `to ${q.host} from now on.`,
    },
    once,
    always,
  );
  return pick === once ? 'once' : pick === always ? 'always' : 'no';
}
