// SecretStorage behind core's SecretsPort: API keys live only here (DESIGN §5, §12).
import type * as vscode from 'vscode';
import type { SecretsPort } from '../core/ports';

export function secretsPort(storage: vscode.SecretStorage): SecretsPort {
  return {
    get: async (key) => (await storage.get(key)) ?? undefined,
    set: async (key, value) => storage.store(key, value),
    delete: async (key) => storage.delete(key),
  };
}
