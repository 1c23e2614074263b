// Which providers have a key, and the exact key values (so the store and exports can redact them
// even when they match no known key shape). Looked up once, in parallel, and again only when keys or
// providers change: each SecretStorage read is a round trip to the workbench, and the chat's
// snapshot (sent whenever the view is re-created) must not wait for ten of them.
import type { SecretsPort } from '../core/ports';
import { secretKeyName } from '../core/providers/keys';
import type { ProviderConfig } from '../core/providers/types';

export class KeyDirectory {
  private readonly values = new Set<string>();
  private readonly present = new Map<string, boolean>();

  constructor(
    private readonly secrets: SecretsPort,
    private readonly configs: () => ProviderConfig[],
    private readonly env: Record<string, string | undefined>,
    /** Other keys Sextant holds (web search): their values are redacted too. */
    private readonly otherKeys: () => Array<{ secret: string; env?: string }> = () => [],
  ) {}

  async refresh(): Promise<void> {
    const [found, others] = await Promise.all([
      Promise.all(
        this.configs().map(async (c) => ({
          c,
          stored: (await this.secrets.get(secretKeyName(c.name)))?.trim(),
          fromEnv: c.apiKeyEnv ? this.env[c.apiKeyEnv]?.trim() : undefined,
        })),
      ),
      Promise.all(
        this.otherKeys().map(async (k) => [
          (await this.secrets.get(k.secret))?.trim(),
          k.env && this.env[k.env]?.trim(),
        ]),
      ),
    ]);
    this.values.clear();
    for (const v of others.flat()) if (v && v.length >= 8) this.values.add(v);
    this.present.clear();
    for (const { c, stored, fromEnv } of found) {
      for (const v of [stored, fromEnv]) if (v && v.length >= 8) this.values.add(v);
      this.present.set(c.name, Boolean(c.keyless || stored || fromEnv));
    }
  }

  hasKey(providerName: string): boolean {
    return this.present.get(providerName) ?? false;
  }

  /** Live view of the known key values (the store reads it at redaction time). */
  secretValues(): ReadonlySet<string> {
    return this.values;
  }
}
