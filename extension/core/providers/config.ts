// Validation and merging of the `sextant.providers` setting over the presets.
// Settings are user input: every entry is checked with zod, a bad one is skipped with an error
// string that says what to fix, and nothing here ever throws.
import * as z from 'zod';
import { presetConfigs } from './presets';
import type { ModelInfo, ProviderConfig } from './types';

const PriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cachedInput: z.number().nonnegative().optional(),
  /** Anthropic's cache writes (1.25× input for the 5-minute cache); plain input price when unset. */
  cacheWrite: z.number().nonnegative().optional(),
});

const HttpUrl = z
  .string()
  .trim()
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

/** One entry of `sextant.providers`. Unknown fields are dropped. */
export const ProviderEntrySchema = z.object({
  // Names cannot hold "/": a model reference is "<name>/<model id>".
  name: z
    .string()
    .trim()
    .min(1, 'is empty')
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'may only use letters, digits, ".", "_" and "-"'),
  kind: z.enum(['openai', 'anthropic', 'vscode-lm']).optional(),
  baseUrl: HttpUrl.optional(),
  model: z.string().trim().min(1).optional(),
  models: z.array(z.string().trim().min(1)).optional(),
  default: z.string().trim().min(1).optional(),
  apiKeyEnv: z
    .string()
    .trim()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  headers: z.record(z.string(), z.string()).optional(),
  contextWindow: z.number().int().positive().optional(),
  price: PriceSchema.optional(),
  keyless: z.boolean().optional(),
  label: z.string().trim().min(1).optional(),
  images: z.boolean().optional(),
  rateLimit: z.object({ requestsPerMinute: z.number().positive().max(100_000) }).optional(),
  reasoning: z.boolean().optional(),
});

export type ProviderEntry = z.infer<typeof ProviderEntrySchema>;

function describe(entry: unknown, index: number): string {
  const name = entry && typeof entry === 'object' ? (entry as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name ? `entry ${index + 1} ("${name}")` : `entry ${index + 1}`;
}

function issues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')} ${i.message}` : i.message)).join('; ');
}

/** The model used when a reference names only the provider. */
export function defaultModelOf(config: ProviderConfig): string | undefined {
  return config.default ?? config.model ?? config.models?.[0];
}

function withoutInfo(
  modelInfo: Record<string, ModelInfo> | undefined,
  field: keyof ModelInfo,
): Record<string, ModelInfo> | undefined {
  if (!modelInfo) return undefined;
  return Object.fromEntries(Object.entries(modelInfo).map(([m, i]) => [m, { ...i, [field]: undefined }]));
}

/** Field-wise merge of a user entry over a base config (a preset or an earlier entry). */
function mergeEntry(base: ProviderConfig | undefined, entry: ProviderEntry): ProviderConfig {
  const defined = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) as ProviderEntry;
  const merged: ProviderConfig = { ...(base ?? { kind: 'openai' }), ...defined, name: entry.name } as ProviderConfig;
  if (base) {
    // A price or context window the user sets is meant for every model of the provider.
    if (entry.price) merged.modelInfo = withoutInfo(merged.modelInfo, 'price');
    if (entry.contextWindow) merged.modelInfo = withoutInfo(merged.modelInfo, 'contextWindow');
    if (entry.images !== undefined) merged.modelInfo = withoutInfo(merged.modelInfo, 'images');
    // Point the provider somewhere else and the preset's model list no longer applies.
    if ((entry.model || entry.models) && !entry.default) merged.default = undefined;
  }
  const models = [...(merged.models ?? [])];
  if (entry.model && !models.includes(entry.model)) models.unshift(entry.model);
  if (entry.model && !entry.models && !entry.default) merged.default = entry.model;
  if (models.length > 0) merged.models = models;
  if (merged.default && merged.models && !merged.models.includes(merged.default))
    merged.models = [merged.default, ...merged.models];
  if (!merged.default) merged.default = merged.model ?? merged.models?.[0];
  return merged;
}

/**
 * Presets overlaid with the user's `sextant.providers` entries (by `name`, field-wise), plus the
 * user's own providers. Invalid entries are skipped and described in `errors`.
 */
export function mergeProviderConfigs(userEntries: unknown): { configs: ProviderConfig[]; errors: string[] } {
  const configs = presetConfigs();
  const errors: string[] = [];
  if (userEntries === undefined || userEntries === null) return { configs, errors };
  if (!Array.isArray(userEntries)) {
    return { configs, errors: ['sextant.providers must be an array of provider entries; it was ignored.'] };
  }
  userEntries.forEach((raw, index) => {
    const where = describe(raw, index);
    if (raw && typeof raw === 'object' && ('apiKey' in raw || 'key' in raw)) {
      // Never echo the value: it is a secret the user pasted into settings by mistake.
      errors.push(
        `${where}: API keys do not belong in settings and were ignored; use "Sextant: Set API Key" or apiKeyEnv.`,
      );
    }
    const parsed = ProviderEntrySchema.safeParse(raw);
    if (!parsed.success) {
      errors.push(`${where} was skipped: ${issues(parsed.error)}.`);
      return;
    }
    const entry = parsed.data;
    const at = configs.findIndex((c) => c.name === entry.name);
    const base = at >= 0 ? configs[at] : undefined;
    const merged = mergeEntry(base, entry);
    if (merged.kind === 'vscode-lm') {
      // VS Code's language models are reached through the editor: no server, no key.
      if (entry.baseUrl || entry.apiKeyEnv)
        errors.push(`${where}: a "vscode-lm" provider needs no baseUrl or apiKeyEnv; they were ignored.`);
      merged.baseUrl = undefined;
      merged.apiKeyEnv = undefined;
      merged.keyless = true;
    }
    if (!defaultModelOf(merged) && merged.kind !== 'vscode-lm') {
      errors.push(`${where} was skipped: it needs "model" or "models".`);
      return;
    }
    if (at >= 0) configs[at] = merged;
    else configs.push(merged);
  });
  return { configs, errors };
}
