// Settings that decide trust — where API keys and code go, what runs without asking — are the
// user's, never a workspace's: a cloned repository's `.vscode/settings.json` must not be able to
// point a provider (and the stored key) at its own server. These functions pick such a setting's
// value from what VS Code's `inspect()` reports, keeping the user (global) value and the default
// and ignoring workspace and workspace-folder values. package.json also declares these settings
// `"scope": "application"`, so VS Code drops workspace values itself; reading only the user scope
// here makes it hold in hosts that ignore the declaration.

/** The `sextant.*` settings (without the prefix) read from user settings only. */
export const USER_ONLY_SETTINGS = [
  'providers',
  'defaultModel',
  'fallbackModel',
  'memory.embeddings',
  'memory.scope',
  'history.purgeDeletedAfterDays',
  'permissions.allow',
  'permissions.ask',
  'permissions.deny',
  'permissions.defaultMode',
  'autoMode.reviewerModel',
  'autoMode.timeoutMs',
  'sandbox.extraWriteRoots',
  'sandbox.mode',
  'sandbox.network.allowedHosts',
  'agent.maxSteps',
  'agent.passEnv',
  'budget.maxCostUsd',
  'budget.maxTokens',
  'budget.sessionMaxCostUsd',
  'budget.sessionMaxTokens',
  'budget.totalMaxCostUsd',
  'budget.totalMaxTokens',
  'agents.maxParallelSessions',
  'goal.maxAttempts',
  'web.allowPrivateHosts',
  'research.fastModel',
  'research.endpoints',
  'plannerModel',
  'mcp.servers',
  'agents.maxConcurrent',
  'agents.maxSteps',
  'agents.maxCostUsd',
  'budget.maxCostUsdPerMinute',
  'browser.executablePath',
  'browser.headless',
  'hooks',
] as const;

export type UserOnlySetting = (typeof USER_ONLY_SETTINGS)[number];

/** The part of `WorkspaceConfiguration.inspect()`'s result that matters here. */
export interface InspectedSetting<T = unknown> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

export interface UserScopeValue<T> {
  /** The user's value, else the default. */
  value: T | undefined;
  /** Scopes that set a value which was ignored. */
  ignored: Array<'workspace' | 'workspaceFolder'>;
}

export function userScopeValue<T>(inspected: InspectedSetting<T> | undefined): UserScopeValue<T> {
  const ignored: UserScopeValue<T>['ignored'] = [];
  if (inspected?.workspaceValue !== undefined) ignored.push('workspace');
  if (inspected?.workspaceFolderValue !== undefined) ignored.push('workspaceFolder');
  return { value: inspected?.globalValue ?? inspected?.defaultValue, ignored };
}

export const MAX_STEPS_DEFAULT = 100;
export const MAX_STEPS_LIMIT = 500;

/** `sextant.agent.maxSteps`, clamped to [1, 200]; anything not a number is the default. */
export function clampMaxSteps(raw: unknown): number {
  if (typeof raw !== 'number' || Number.isNaN(raw)) return MAX_STEPS_DEFAULT;
  return Math.min(MAX_STEPS_LIMIT, Math.max(1, Math.floor(raw)));
}

/**
 * The user-only settings a parsed `.vscode/settings.json` (or a `.code-workspace` file's
 * `settings`) sets. VS Code drops application-scoped values from workspace settings before
 * `inspect()` sees them, so the file itself is read to tell the user.
 */
export function userOnlyKeysIn(settings: unknown): Map<UserOnlySetting, unknown> {
  const found = new Map<UserOnlySetting, unknown>();
  if (!settings || typeof settings !== 'object' || Array.isArray(settings)) return found;
  const record = settings as Record<string, unknown>;
  for (const key of USER_ONLY_SETTINGS) {
    const full = `sextant.${key}`;
    if (Object.hasOwn(record, full)) found.set(key, record[full]);
  }
  return found;
}

export function ignoredSettingMessage(key: string, where: string): string {
  return (
    `sextant.${key} is set in ${where} and was ignored: it decides where your API keys and code go or what ` +
    'runs without asking, so Sextant reads it from your user settings only.'
  );
}

/**
 * Says once that a workspace value was ignored: again only when the value changes, or after it
 * was removed and set again.
 */
export class IgnoredSettingsReporter {
  private readonly told = new Map<string, string>();

  /** `found`: key → the ignored value (any JSON), for every place that sets one. */
  update(found: ReadonlyMap<string, { value: unknown; where: string }>): string[] {
    const messages: string[] = [];
    for (const [key, { value, where }] of found) {
      const fingerprint = `${where}\u0000${safeJson(value)}`;
      if (this.told.get(key) === fingerprint) continue;
      this.told.set(key, fingerprint);
      messages.push(ignoredSettingMessage(key, where));
    }
    for (const key of [...this.told.keys()]) if (!found.has(key)) this.told.delete(key);
    return messages;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}
