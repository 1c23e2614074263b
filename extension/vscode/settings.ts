// Reads the `sextant.*` settings from VS Code. Read on every use, so edits apply without a reload: the
// values are kept only from one change to the next (watchSettingsCache drops them on every change).
// The readers themselves are host-neutral (extension/engine/settings.ts); this file gives them VS Code's
// configuration as their source: user-only settings (USER_ONLY_SETTINGS) from the user's scope, a
// workspace's value for one of them ignored and reported once (watchIgnoredWorkspaceSettings).
import * as vscode from 'vscode';
import { CachedSettingsSource } from '../engine/cached-settings';
import { parseJsonc } from '../core/config/jsonc';
import { ManagedSettingsFiles } from '../core/config/managed-file';
import { IgnoredSettingsReporter, USER_ONLY_SETTINGS, userOnlyKeysIn, userScopeValue } from '../core/config/user-scope';
import type { Logger } from '../core/ports';
import * as engine from '../engine/settings';

export type { EmbeddingsSetting, PermissionSettingsRead, SextantSettings } from '../engine/settings';
export { DEFAULT_MODEL } from '../engine/settings';

/**
 * The machine's managed settings file (core/config/managed-file.ts), read again when it changes. One
 * per extension host, like the configuration it stands above.
 */
const managedFiles = ManagedSettingsFiles.forThisMachine();

/**
 * VS Code's configuration as the readers' source, each value kept until the next change (below), with the
 * administrator's managed settings above it (not cached: the file is re-read when it changes).
 */
const cachedSettings = new CachedSettingsSource({
  user: (key) => userScopeValue(vscode.workspace.getConfiguration('sextant').inspect<unknown>(key)).value,
  any: (key) => vscode.workspace.getConfiguration('sextant').get<unknown>(key),
  managed: () => managedFiles.current(),
});
export const vscodeSettings: engine.SettingsSource = cachedSettings;

/**
 * Keeps the values read until something may change them: a `sextant.*` setting (any scope), the
 * workspace's folders (their settings), workspace trust (VS Code applies restricted settings once it
 * is granted), and whatever else the caller names (the workspace's `.sextant/settings.json`). The
 * runtime registers this before any other listener, so every reaction to a change reads the new value.
 */
export function watchSettingsCache(...alsoOn: vscode.Event<unknown>[]): vscode.Disposable {
  const invalidate = () => cachedSettings.invalidate();
  const subscriptions = [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('sextant')) invalidate();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(invalidate),
    vscode.workspace.onDidGrantWorkspaceTrust(invalidate),
    ...alsoOn.map((event) => event(invalidate)),
  ];
  const unwatch = cachedSettings.watch();
  return new vscode.Disposable(() => {
    unwatch();
    for (const s of subscriptions) s.dispose();
  });
}

export const readManagedNotes = () => engine.managedSettingNotes(vscodeSettings);

export const readSettings = () => engine.readSettings(vscodeSettings);
export const readBrowserSettings = () => engine.readBrowserSettings(vscodeSettings);
export const readMcpServersSetting = () => engine.readMcpServersSetting(vscodeSettings);
export const readHooksSetting = () => engine.readHooksSetting(vscodeSettings);
export const readPermissionSettings = () => engine.readPermissionSettings(vscodeSettings);
export const readSandboxSettings = () => engine.readSandboxSettings(vscodeSettings);
export const readAutoModeSettings = () => engine.readAutoModeSettings(vscodeSettings);
export const readSearchSettings = () => engine.readSearchSettings(vscodeSettings);
export const readFleetLimits = () => engine.readFleetLimits(vscodeSettings);

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
