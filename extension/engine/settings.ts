// Reads the `sextant.*` settings from a host's settings source: VS Code's configuration in the
// extension (extension/vscode/settings.ts), `~/.sextant/settings.json` on the command line
// (extension/cli/settings-file.ts). One reader for both hosts, so a setting means the same in each.
// Settings that decide trust (USER_ONLY_SETTINGS) are read from the user's scope only: the source's
// `user` never answers with a workspace's value.
import { clampMaxSteps, type UserOnlySetting } from '../core/config/user-scope';
import { type BudgetLimits, capValue } from '../core/usage/budget';
import type { MemoryScope } from '../core/store/memory-query';
import { purgeDeletedAfterDays } from '../core/store/storage-summary';
import { parseSearchSettings, type ParsedSearchSettings } from '../core/web/search/settings';
import { parseSandboxSettings, type SandboxSettingsRead } from '../core/sandbox/settings';
import { parseSubagentSettings, type SubagentSettings } from '../core/config/subagent-settings';
import type { FleetLimits } from '../core/usage/fleet-budget';
import { DEFAULT_GOAL_MAX_ATTEMPTS } from '../core/agent/goal-loop';
import { autoModeForbidden, type ManagedState, managedSource, sandboxRequired } from '../core/config/managed-settings';

/** Where a host keeps the `sextant.*` settings (keys without the `sextant.` prefix). */
export interface SettingsSource {
  /** The user's value (else the default); a value a workspace sets is never returned. */
  user(key: string): unknown;
  /** The value from any scope: only for settings that decide nothing about trust. */
  any(key: string): unknown;
  /**
   * The administrator's managed settings (core/config/managed-file.ts), which the readers below put above
   * the user's: more deny and ask rules, the sandbox required, auto mode refused. Absent: none.
   */
  managed?(): ManagedState;
}

export interface EmbeddingsSetting {
  /** A configured provider whose base URL and key are used (e.g. "openai"). */
  provider?: string;
  baseUrl?: string;
  model: string;
  apiKeyEnv?: string;
}

export interface SextantSettings {
  providers: unknown;
  defaultModel: string;
  maxSteps: number;
  embeddings: EmbeddingsSetting | undefined;
  /** sextant.memory.scope: which sessions the agent's memory_search reads. */
  memoryScope: MemoryScope;
  /** sextant.web.allowPrivateHosts: hosts web_fetch may reach on a private network. */
  allowPrivateHosts: string[];
  /** sextant.research.fastModel: the model web_fetch answers with (undefined: the chat's model). */
  fastModel: string | undefined;
  /** sextant.fallbackModel: the model a failing chat model fails over to (undefined: none). */
  fallbackModel: string | undefined;
  /** sextant.plannerModel: the model Plan mode and the research planner use (undefined: the chat's model). */
  plannerModel: string | undefined;
  /** sextant.budget.*: spending caps per run and per session (they decide spending: user settings only). */
  budget: BudgetLimits;
  /** sextant.history.purgeDeletedAfterDays (0 = keep deleted chats). */
  purgeDeletedAfterDays: number;
  /** sextant.agents.* and sextant.budget.maxCostUsdPerMinute (user settings only). */
  subagents: SubagentSettings;
  /** sextant.goal.maxAttempts: turns a `/goal` may take (user settings only). */
  goalMaxAttempts: number;
}

/** sextant.permissions.* and sextant.sandbox.extraWriteRoots, from user settings only. */
export interface PermissionSettingsRead {
  allow: unknown[];
  ask: unknown[];
  deny: unknown[];
  defaultMode: unknown;
  extraWriteRoots: unknown[];
}

export const DEFAULT_MODEL = 'minimax/MiniMax-M2.1';

function list(s: SettingsSource, key: UserOnlySetting): unknown[] {
  const v = s.user(key);
  if (v === undefined || v === null) return [];
  // Not a list: handed on as one entry, so the policy reports it instead of it vanishing.
  return Array.isArray(v) ? v : [v];
}

export function readSettings(s: SettingsSource): SextantSettings {
  const defaultModel = s.user('defaultModel');
  return {
    providers: s.user('providers') ?? [],
    defaultModel: typeof defaultModel === 'string' && defaultModel.trim() ? defaultModel : DEFAULT_MODEL,
    maxSteps: clampMaxSteps(s.user('agent.maxSteps')),
    embeddings: embeddingsSetting(s.user('memory.embeddings')),
    memoryScope: s.user('memory.scope') === 'all' ? 'all' : 'workspace',
    allowPrivateHosts: list(s, 'web.allowPrivateHosts').filter((h): h is string => typeof h === 'string' && !!h.trim()),
    fastModel: nonEmpty(s.user('research.fastModel')),
    fallbackModel: nonEmpty(s.user('fallbackModel')),
    plannerModel: nonEmpty(s.user('plannerModel')),
    budget: {
      maxCostUsd: capValue(s.user('budget.maxCostUsd')),
      maxTokens: capValue(s.user('budget.maxTokens')),
      sessionMaxCostUsd: capValue(s.user('budget.sessionMaxCostUsd')),
      sessionMaxTokens: capValue(s.user('budget.sessionMaxTokens')),
    },
    purgeDeletedAfterDays: purgeDeletedAfterDays(s.user('history.purgeDeletedAfterDays')),
    subagents: parseSubagentSettings({
      maxConcurrent: s.user('agents.maxConcurrent'),
      maxSteps: s.user('agents.maxSteps'),
      maxCostUsd: s.user('agents.maxCostUsd'),
      maxCostUsdPerMinute: s.user('budget.maxCostUsdPerMinute'),
    }),
    goalMaxAttempts: goalMaxAttempts(s.user('goal.maxAttempts')),
  };
}

function goalMaxAttempts(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? Math.min(v, 100) : DEFAULT_GOAL_MAX_ATTEMPTS;
}

/**
 * The fleet limits of all sessions of one window or engine (core/usage/fleet-budget.ts), read on every
 * check so a changed setting applies at once: sextant.agents.maxParallelSessions,
 * sextant.budget.totalMaxCostUsd / .totalMaxTokens and the spend rate (sextant.budget.maxCostUsdPerMinute),
 * all from user settings only (they decide spending).
 */
export function readFleetLimits(s: SettingsSource): FleetLimits {
  const parallel = s.user('agents.maxParallelSessions');
  const rate = capValue(s.user('budget.maxCostUsdPerMinute'));
  const cost = capValue(s.user('budget.totalMaxCostUsd'));
  const tokens = capValue(s.user('budget.totalMaxTokens'));
  return {
    ...(typeof parallel === 'number' && Number.isInteger(parallel) && parallel > 0
      ? { maxParallelSessions: parallel }
      : {}),
    ...(cost !== undefined ? { totalMaxCostUsd: cost } : {}),
    ...(tokens !== undefined ? { totalMaxTokens: tokens } : {}),
    ...(rate !== undefined ? { maxCostUsdPerMinute: rate } : {}),
  };
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/**
 * sextant.browser.executablePath and .headless (user settings only: a workspace must not pick the
 * program the browser tools start).
 */
export function readBrowserSettings(s: SettingsSource): { executablePath?: string; headless: boolean } {
  const path = nonEmpty(s.user('browser.executablePath'));
  return { ...(path ? { executablePath: path } : {}), headless: s.user('browser.headless') !== false };
}

/** sextant.mcp.servers (user settings only: a server there starts without asking). */
export function readMcpServersSetting(s: SettingsSource): unknown {
  return s.user('mcp.servers');
}

/** `sextant.hooks` (user scope only): Claude Code's "hooks" object, checked by core/extensions/hooks/config.ts. */
export function readHooksSetting(s: SettingsSource): unknown {
  return s.user('hooks');
}

export function readPermissionSettings(s: SettingsSource): PermissionSettingsRead {
  const managed = s.managed?.();
  const mode = s.user('permissions.defaultMode');
  return {
    allow: list(s, 'permissions.allow'),
    // The administrator's rules come on top of the user's (deny > ask > allow, so they win).
    ask: [...list(s, 'permissions.ask'), ...(managed?.policy?.ask ?? [])],
    deny: [...list(s, 'permissions.deny'), ...(managed?.policy?.deny ?? [])],
    defaultMode: mode === 'auto' && autoModeForbidden(managed) ? 'ask' : mode,
    extraWriteRoots: list(s, 'sandbox.extraWriteRoots'),
  };
}

/**
 * sextant.autoMode.*: the reviewer model (undefined: the chat's) and how long a review may take
 * (undefined: the reviewer's default). User settings only: a workspace must not pick who answers for you.
 */
export function readAutoModeSettings(s: SettingsSource): { reviewerModel?: string; timeoutMs?: number } {
  const model = nonEmpty(s.user('autoMode.reviewerModel'));
  const t = s.user('autoMode.timeoutMs');
  const timeoutMs = typeof t === 'number' && Number.isFinite(t) && t >= 1000 ? Math.min(t, 120_000) : undefined;
  return { ...(model ? { reviewerModel: model } : {}), ...(timeoutMs ? { timeoutMs } : {}) };
}

/**
 * What the managed settings change about the user's own, in words for the view (the chat's notice, the
 * log): one line per setting an administrator pins. Empty when nothing is managed.
 */
export function managedSettingNotes(s: SettingsSource): string[] {
  const m = s.managed?.();
  if (!m || (!m.policy && !m.error)) return [];
  if (m.error) return [`Managed settings failed, so Sextant runs no model until they are fixed: ${m.error}.`];
  const p = m.policy;
  const from = managedSource(m);
  const notes: string[] = [];
  if (p?.requireSandbox) {
    const off = s.user('sandbox.mode') === 'off' ? ' (your "off" is not used)' : '';
    notes.push(`sextant.sandbox.mode is managed: the sandbox is required${off}; commands never run outside it.`);
  }
  if (p?.disableAutoMode) {
    const auto = s.user('permissions.defaultMode') === 'auto' ? ' (your "auto" is read as "ask")' : '';
    notes.push(`sextant.permissions.defaultMode is managed: auto mode is not allowed${auto}.`);
  }
  if (p?.deniedProviders.length) notes.push(`Providers denied: ${p.deniedProviders.join(', ')}.`);
  if (p?.deniedModels.length) notes.push(`Models denied: ${p.deniedModels.join(', ')}.`);
  if (p && (p.deny.length || p.ask.length))
    notes.push(
      `sextant.permissions.deny / ask have rules your administrator added (${[...p.deny, ...p.ask].join(', ')}).`,
    );
  return notes.length ? [`Set by your administrator — ${from}:`, ...notes] : [];
}

/** sextant.sandbox.mode and .network.allowedHosts, from user settings only (parsed in core/sandbox/settings.ts). */
export function readSandboxSettings(s: SettingsSource): SandboxSettingsRead {
  return parseSandboxSettings({
    mode: s.user('sandbox.mode'),
    allowedHosts: s.user('sandbox.network.allowedHosts'),
    required: sandboxRequired(s.managed?.()),
  });
}

/**
 * sextant.research.searchProviders (any scope: a workspace may reorder or narrow the providers, which
 * sends no key anywhere new) and sextant.research.endpoints (user settings only: it decides where keys go).
 */
export function readSearchSettings(s: SettingsSource): ParsedSearchSettings {
  const providers = s.any('research.searchProviders');
  return parseSearchSettings(providers, s.user('research.endpoints'));
}

/** The embeddings setting, or undefined when unset or unusable (memory search then uses BM25 alone). */
function embeddingsSetting(raw: unknown): EmbeddingsSetting | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const model = str(r.model);
  if (!model) return undefined;
  return { model, provider: str(r.provider), baseUrl: str(r.baseUrl), apiKeyEnv: str(r.apiKeyEnv) };
}

/**
 * `sextant.agent.passEnv`, from user settings only: a workspace must not be able to hand the user's
 * keys to the commands an agent runs in it.
 */
export function readPassEnv(s: SettingsSource): string[] {
  const raw = s.user('agent.passEnv');
  return Array.isArray(raw) ? raw.filter((n): n is string => typeof n === 'string' && n.trim() !== '') : [];
}

/** sextant.research.* as the research host reads them (limits, default filters); any scope. */
export function researchSetting(s: SettingsSource, key: string): unknown {
  return s.any(`research.${key}`);
}
