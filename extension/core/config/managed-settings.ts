// Managed settings: what an administrator pins for every user of a machine, above anything the user or a
// workspace sets — require the sandbox, deny providers or models, add deny/ask rules, forbid auto mode.
// The file (managed-file.ts finds it) is JSON with comments:
//
//   {
//     "sandbox": { "require": true },
//     "providers": { "deny": ["openrouter", "api.deepseek.com"] },
//     "models": { "deny": ["openai/gpt-4.1", "anthropic/*"] },
//     "permissions": { "deny": ["bash(curl *)"], "ask": ["bash(git push*)"], "disableAutoMode": true }
//   }
//
// It can only tighten: every field adds a restriction, none lifts one. A file that does not parse, or
// names a key this version does not know (an administrator's typo must not silently pin nothing), is an
// error, and an error fails closed: no model runs (the request says why and which file), the sandbox is
// required and auto mode forbidden, until the file is fixed.
import * as z from 'zod';
import { lineColumn, parseJsonc } from './jsonc';

const RuleList = z.array(z.string().min(1)).max(1_000);

const ManagedFileSchema = z
  .object({
    sandbox: z.object({ require: z.boolean().optional() }).strict().optional(),
    providers: z
      .object({ deny: z.array(z.string().min(1)).max(200).optional() })
      .strict()
      .optional(),
    models: z
      .object({ deny: z.array(z.string().min(1)).max(500).optional() })
      .strict()
      .optional(),
    permissions: z
      .object({ deny: RuleList.optional(), ask: RuleList.optional(), disableAutoMode: z.boolean().optional() })
      .strict()
      .optional(),
  })
  .strict();

/** What the administrator pinned (the union of every managed file read). */
export interface ManagedPolicy {
  /** The files it came from (shown wherever a managed value is named). */
  files: string[];
  requireSandbox: boolean;
  /** Provider names, or API host names (`api.deepseek.com`), denied. */
  deniedProviders: string[];
  /** `provider/model` patterns (`*` matches any text) or bare model ids, denied. */
  deniedModels: string[];
  deny: string[];
  ask: string[];
  disableAutoMode: boolean;
}

/** The managed settings in effect: none, a policy, or a file that failed (fail closed, `error` says why). */
export interface ManagedState {
  policy?: ManagedPolicy;
  /** Set when a managed file could not be read or understood: Sextant refuses to run any model. */
  error?: string;
}

export const NO_MANAGED: ManagedState = {};

/** Parses one managed file's text; `file` names it in errors. */
export function parseManagedSettings(text: string, file: string): ManagedState {
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const at = lineColumn(text, parsed.offset);
    return { error: `${file} is not valid JSON (line ${at.line}, column ${at.column}: ${parsed.message})` };
  }
  const checked = ManagedFileSchema.safeParse(parsed.value);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const where = issue?.path.length ? ` at "${issue.path.join('.')}"` : '';
    const keys = issue && 'keys' in issue ? ` (${(issue.keys as string[]).join(', ')})` : '';
    return { error: `${file} is not a managed settings file Sextant understands${where}: ${issue?.message}${keys}` };
  }
  const v = checked.data;
  return {
    policy: {
      files: [file],
      requireSandbox: v.sandbox?.require === true,
      deniedProviders: v.providers?.deny ?? [],
      deniedModels: v.models?.deny ?? [],
      deny: v.permissions?.deny ?? [],
      ask: v.permissions?.ask ?? [],
      disableAutoMode: v.permissions?.disableAutoMode === true,
    },
  };
}

/** Several managed files together: every restriction of each; any error wins (fail closed). */
export function mergeManaged(states: readonly ManagedState[]): ManagedState {
  const errors = states.map((s) => s.error).filter((e): e is string => !!e);
  const policies = states.map((s) => s.policy).filter((p): p is ManagedPolicy => !!p);
  const policy: ManagedPolicy | undefined = policies.length
    ? {
        files: policies.flatMap((p) => p.files),
        requireSandbox: policies.some((p) => p.requireSandbox),
        deniedProviders: [...new Set(policies.flatMap((p) => p.deniedProviders))],
        deniedModels: [...new Set(policies.flatMap((p) => p.deniedModels))],
        deny: [...new Set(policies.flatMap((p) => p.deny))],
        ask: [...new Set(policies.flatMap((p) => p.ask))],
        disableAutoMode: policies.some((p) => p.disableAutoMode),
      }
    : undefined;
  return { ...(policy ? { policy } : {}), ...(errors.length ? { error: errors.join('; ') } : {}) };
}

/** Whether the sandbox is required (also when the managed file failed: fail closed). */
export function sandboxRequired(m: ManagedState | undefined): boolean {
  return !!m && (!!m.error || m.policy?.requireSandbox === true);
}

/** Whether auto mode is forbidden (also when the managed file failed). */
export function autoModeForbidden(m: ManagedState | undefined): boolean {
  return !!m && (!!m.error || m.policy?.disableAutoMode === true);
}

/** How a message names where a managed value comes from. */
export function managedSource(m: ManagedState): string {
  const files = m.policy?.files ?? [];
  return files.length ? `managed settings (${files.join(', ')})` : 'managed settings';
}

const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  );

/** The host name of a base URL, lower case; undefined when it has none. */
function hostOf(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    return new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Why a model may not be used under the managed settings (undefined: it may). A provider is denied by
 * its name — and, so that renaming it does not get around the rule, by its API host: a denied entry that
 * names a provider denies every provider reaching the same host, and an entry that is a host name
 * (`api.openai.com`) denies the providers reaching it. `known` are the configured providers (presets
 * included), to learn the host a denied name stands for.
 */
export function managedModelRefusal(
  m: ManagedState | undefined,
  target: { provider: string; baseUrl?: string; model: string },
  known: ReadonlyArray<{ name: string; baseUrl?: string }>,
): string | undefined {
  if (!m) return undefined;
  if (m.error) return `Sextant will not run any model: ${m.error}. Ask your administrator to fix the file.`;
  const p = m.policy;
  if (!p) return undefined;
  const ref = `${target.provider}/${target.model}`;
  const host = hostOf(target.baseUrl);
  const deniedHosts = new Set<string>();
  for (const entry of p.deniedProviders) {
    const e = entry.toLowerCase();
    if (e.includes('.')) deniedHosts.add(e);
    for (const k of known) {
      const h = k.name.toLowerCase() === e ? hostOf(k.baseUrl) : undefined;
      if (h) deniedHosts.add(h);
    }
  }
  const byName = p.deniedProviders.some((e) => e.toLowerCase() === target.provider.toLowerCase());
  if (byName || (host && deniedHosts.has(host))) {
    const which = byName ? `"${target.provider}"` : host;
    return `${ref} is not allowed: your administrator denies the provider ${which} (${managedSource(m)}).`;
  }
  const model = p.deniedModels.find((d) => (d.includes('/') ? glob(d).test(ref) : glob(d).test(target.model)));
  if (model) return `${ref} is not allowed: your administrator denies "${model}" (${managedSource(m)}).`;
  return undefined;
}
