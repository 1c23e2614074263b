// A `sextant -p` run knows its model as soon as the settings are read, well before the engine is
// composed: this starts, then, what the first request needs and would otherwise wait for — the model's
// SDK bundle loaded, its key read, and the connection to its server opened (DNS, TCP and TLS, through
// Node's fetch pool that the SDKs send with: warm-connection.ts, one GET to the configured base URL, no
// key, no body) — so they proceed while the engine's modules are evaluated and composed. The same core
// steps as the extension's warm-up (ProviderRegistry.warm): nothing is asked, a key is not sent anywhere,
// a model the administrator denies is not warmed. A server on this machine costs nothing to connect to
// and is left alone. Best effort: the request itself meets, and reports, any problem.
import type { SecretsPort } from '../core/ports';
import type { SettingsSource } from '../engine/settings';
import { readSettings } from '../engine/settings';
import { ProvidersHost } from '../engine/providers';
import { warmConnection } from '../platform/net/warm-connection';

const quiet = { info() {}, warn() {}, error() {} };

export function warmFirstRequest(o: {
  settings: SettingsSource;
  /** --model, else the settings' default model. */
  model: string | undefined;
  secrets: SecretsPort;
  env: Record<string, string | undefined>;
  bundleDir: string;
}): void {
  try {
    const providers = new ProvidersHost({
      secrets: o.secrets,
      // The engine's own host reports the settings' problems; this one says nothing.
      log: quiet,
      providersSetting: () => readSettings(o.settings).providers,
      env: o.env,
      confirmKeyDestination: async () => 'no',
      bundleDir: o.bundleDir,
      managed: () => o.settings.managed?.() ?? {},
    });
    const ref = o.model ?? readSettings(o.settings).defaultModel;
    if (providers.managedRefusal(ref)) return;
    void providers
      .warm(ref)
      .then((to) => (to && !onThisMachine(to.baseUrl) ? warmConnection(to.baseUrl) : undefined))
      .catch(() => undefined);
  } catch {
    // A warm-up that cannot start changes nothing: the request does the same work itself.
  }
}

function onThisMachine(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
