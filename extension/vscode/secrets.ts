// SecretStorage behind core's SecretsPort: API keys live only here, never in settings or logs.
//
// Every read is a round trip to the workbench — tens of milliseconds in a browser or remote window —
// and a request reads its provider's key and the key's bound host before it can go out. So values are
// kept in memory once read (the runtime holds the same values anyway, to redact them) and forgotten
// when SecretStorage reports a change, made here or in another window.
import type * as vscode from 'vscode';
import type { SecretsPort } from '../core/ports';

export type CachedSecretsPort = SecretsPort & { dispose(): void };

export function secretsPort(
  storage: Pick<vscode.SecretStorage, 'get' | 'store' | 'delete' | 'onDidChange'>,
): CachedSecretsPort {
  const cache = new Map<string, Promise<string | undefined>>();
  const forget = (key: string) => cache.delete(key);
  const sub = storage.onDidChange((e) => forget(e.key));
  return {
    get: (key) => {
      let value = cache.get(key);
      if (!value) {
        value = Promise.resolve(storage.get(key)).then((v) => v ?? undefined);
        cache.set(key, value);
        // A failed read is not remembered: the next one asks again.
        value.catch(() => cache.get(key) === value && forget(key));
      }
      return value;
    },
    // Forgotten before and after the write: a read that started before it cannot leave the old value behind.
    set: async (key, value) => {
      forget(key);
      await storage.store(key, value);
      forget(key);
    },
    delete: async (key) => {
      forget(key);
      await storage.delete(key);
      forget(key);
    },
    dispose: () => sub.dispose(),
  };
}
