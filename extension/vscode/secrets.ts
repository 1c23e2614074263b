// SecretStorage behind core's SecretsPort: API keys live only here, never in settings or logs.
import type * as vscode from 'vscode';
import type { SecretsPort } from '../core/ports';

export function secretsPort(storage: vscode.SecretStorage): SecretsPort {
  return {
    get: async (key) => (await storage.get(key)) ?? undefined,
    set: async (key, value) => storage.store(key, value),
    delete: async (key) => storage.delete(key),
  };
}
