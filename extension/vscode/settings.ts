// Reads the `sextant.*` settings. Read on every use, so edits apply without a reload.
// Settings that decide trust (USER_ONLY_SETTINGS: providers, defaultModel, memory.embeddings, memory.scope,
// permissions.*, sandbox.*, agent.maxSteps, web.allowPrivateHosts, research.fastModel)
// come from user settings only; a value a workspace sets for one of them is ignored and reported once
// (watchIgnoredWorkspaceSettings).
import * as vscode from 'vscode';
import type { FleetLimits } from '../core/usage/fleet-budget';
import { DEFAULT_GOAL_MAX_ATTEMPTS } from '../core/agent/goal-loop';
import { parseJsonc } from '../core/config/jsonc';
import {
  clampMaxSteps,
  IgnoredSettingsReporter,
  USER_ONLY_SETTINGS,
  userOnlyKeysIn,
  userScopeValue,
  type UserOnlySetting,
} from '../core/config/user-scope';
import type { Logger } from '../core/ports';
import { type BudgetLimits, capValue } from '../core/usage/budget';
import type { MemoryScope } from '../core/store/memory-query';
import { purgeDeletedAfterDays } from '../core/store/storage-summary';
import { parseSearchSettings, type ParsedSearchSettings } from '../core/web/search/settings';
import { parseSandboxSettings, type SandboxSettingsRead } from '../core/sandbox/settings';
import { parseSubagentSettings, type SubagentSettings } from '../core/config/subagent-settings';

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

/** The user's value of a user-only setting (else its default); workspace values are ignored. */
function userValue<T>(key: UserOnlySetting): T | undefined {
  return userScopeValue(vscode.workspace.getConfiguration('sextant').inspect<T>(key)).value;
}

function list(key: UserOnlySetting): unknown[] {
  const v = userValue<unknown>(key);
  if (v === undefined || v === null) return [];
  // Not a list: handed on as one entry, so the policy reports it instead of it vanishing.
  return Array.isArray(v) ? v : [v];
}

export function readSettings(): SextantSettings {
  const defaultModel = userValue<unknown>('defaultModel');
  return {
    providers: userValue<unknown>('providers') ?? [],
    defaultModel: typeof defaultModel === 'string' && defaultModel.trim() ? defaultModel : DEFAULT_MODEL,
    maxSteps: clampMaxSteps(userValue<unknown>('agent.maxSteps')),
    embeddings: embeddingsSetting(userValue<unknown>('memory.embeddings')),
    memoryScope: userValue<unknown>('memory.scope') === 'all' ? 'all' : 'workspace',
    allowPrivateHosts: list('web.allowPrivateHosts').filter((h): h is string => typeof h === 'string' && !!h.trim()),
    fastModel: nonEmpty(userValue<unknown>('research.fastModel')),
    fallbackModel: nonEmpty(userValue<unknown>('fallbackModel')),
    plannerModel: nonEmpty(userValue<unknown>('plannerModel')),
    budget: {
      maxCostUsd: capValue(userValue<unknown>('budget.maxCostUsd')),
      maxTokens: capValue(userValue<unknown>('budget.maxTokens')),
      sessionMaxCostUsd: capValue(userValue<unknown>('budget.sessionMaxCostUsd')),
      sessionMaxTokens: capValue(userValue<unknown>('budget.sessionMaxTokens')),
    },
    purgeDeletedAfterDays: purgeDeletedAfterDays(userValue<unknown>('history.purgeDeletedAfterDays')),
    subagents: parseSubagentSettings({
      maxConcurrent: userValue<unknown>('agents.maxConcurrent'),
      maxSteps: userValue<unknown>('agents.maxSteps'),
      maxCostUsd: userValue<unknown>('agents.maxCostUsd'),
      maxCostUsdPerMinute: userValue<unknown>('budget.maxCostUsdPerMinute'),
    }),
    goalMaxAttempts: goalMaxAttempts(userValue<unknown>('goal.maxAttempts')),
  };
}

function goalMaxAttempts(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? Math.min(v, 100) : DEFAULT_GOAL_MAX_ATTEMPTS;
}

/**
 * The window's fleet limits (core/usage/fleet-budget.ts), read on every check so a changed setting applies
 * at once: sextant.agents.maxParallelSessions, sextant.budget.totalMaxCostUsd / .totalMaxTokens and the
 * spend rate (sextant.budget.maxCostUsdPerMinute), all from user settings only (they decide spending).
 */
export function readFleetLimits(): FleetLimits {
  const parallel = userValue<unknown>('agents.maxParallelSessions');
  const rate = capValue(userValue<unknown>('budget.maxCostUsdPerMinute'));
  const cost = capValue(userValue<unknown>('budget.totalMaxCostUsd'));
  const tokens = capValue(userValue<unknown>('budget.totalMaxTokens'));
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
export function readBrowserSettings(): { executablePath?: string; headless: boolean } {
  const path = nonEmpty(userValue<unknown>('browser.executablePath'));
  return { ...(path ? { executablePath: path } : {}), headless: userValue<unknown>('browser.headless') !== false };
}

/** sextant.mcp.servers (user settings only: a server there starts without asking). */
export function readMcpServersSetting(): unknown {
  return userValue<unknown>('mcp.servers');
}

/** `sextant.hooks` (user scope only): Claude Code's "hooks" object, checked by core/extensions/hooks/config.ts. */
export function readHooksSetting(): unknown {
  return userValue<unknown>('hooks');
}

export function readPermissionSettings(): PermissionSettingsRead {
  return {
    allow: list('permissions.allow'),
    ask: list('permissions.ask'),
    deny: list('permissions.deny'),
    defaultMode: userValue<unknown>('permissions.defaultMode'),
    extraWriteRoots: list('sandbox.extraWriteRoots'),
  };
}

/** sextant.sandbox.mode and .network.allowedHosts, from user settings only (parsed in core/sandbox/settings.ts). */
export function readSandboxSettings(): SandboxSettingsRead {
  return parseSandboxSettings({
    mode: userValue<unknown>('sandbox.mode'),
    allowedHosts: userValue<unknown>('sandbox.network.allowedHosts'),
  });
}

/**
 * sextant.research.searchProviders (any scope: a workspace may reorder or narrow the providers, which
 * sends no key anywhere new) and sextant.research.endpoints (user settings only: it decides where keys go).
 */
export function readSearchSettings(): ParsedSearchSettings {
  const providers = vscode.workspace.getConfiguration('sextant').get<unknown>('research.searchProviders');
  return parseSearchSettings(providers, userValue<unknown>('research.endpoints'));
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

/** Workspace values of user-only settings: what VS Code reports, and what `.vscode/settings.json` says. */
async function workspaceValues(): Promise<Map<string, { value: unknown; where: string }>> {
  const found = new Map<string, { value: unknown; where: string }>();
  const c = vscode.workspace.getConfiguration('sextant');
  for (const key of USER_ONLY_SETTINGS) {
    const i = c.inspect(key);
    if (i?.workspaceFolderValue !== undefined)
      found.set(key, { value: i.workspaceFolderValue, where: 'workspace folder settings' });
    if (i?.workspaceValue !== undefined) found.set(key, { value: i.workspaceValue, where: 'workspace settings' });
  }
  // VS Code drops application-scoped values from workspace settings before inspect() sees them.
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const uri = vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json');
    const text = await readText(uri);
    const parsed = text === undefined ? undefined : parseJsonc(text);
    if (!parsed?.ok) continue;
    const where = `${vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1)}`;
    for (const [key, value] of userOnlyKeysIn(parsed.value)) if (!found.has(key)) found.set(key, { value, where });
  }
  const file = vscode.workspace.workspaceFile;
  if (file && file.scheme !== 'untitled') {
    const text = await readText(file);
    const parsed = text === undefined ? undefined : parseJsonc(text);
    const settings = parsed?.ok ? (parsed.value as { settings?: unknown } | null)?.settings : undefined;
    for (const [key, value] of userOnlyKeysIn(settings))
      if (!found.has(key)) found.set(key, { value, where: 'the workspace file' });
  }
  return found;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return bytes.byteLength > 1_000_000 ? undefined : Buffer.from(bytes).toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * Logs a warning, once per key and value, for every user-only setting a workspace sets: now, when
 * settings change (`check`, from the runtime's setting reactions), and when a folder's
 * `.vscode/settings.json` changes.
 */
export function watchIgnoredWorkspaceSettings(log: Logger): vscode.Disposable & { check(): void } {
  const reporter = new IgnoredSettingsReporter();
  let run = Promise.resolve();
  const check = () => {
    run = run
      .then(async () => {
        for (const message of reporter.update(await workspaceValues())) log.warn(message);
      })
      .catch((err: unknown) => log.warn(`could not check workspace settings: ${String(err)}`));
  };
  const watcher = vscode.workspace.createFileSystemWatcher('**/.vscode/settings.json');
  const subscriptions = [
    watcher,
    watcher.onDidCreate(check),
    watcher.onDidChange(check),
    watcher.onDidDelete(check),
    vscode.workspace.onDidChangeWorkspaceFolders(check),
  ];
  check();
  // Settings changes reach `check` through the runtime's table of setting reactions.
  return Object.assign(vscode.Disposable.from(...subscriptions), { check });
}
