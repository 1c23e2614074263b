// The one table of settings → what reloads when they change, and the one listener that applies it.
// A new setting that needs more than "read on every use" adds a row here (see docs/ARCHITECTURE.md,
// "Add a setting"); nothing else in the runtime listens to configuration changes.
import * as vscode from 'vscode';

export interface SettingReaction {
  /** Setting sections (`sextant.providers`, `sextant.memory.embeddings`, …); any of them changing reacts. */
  sections: readonly string[];
  /** The output channel's line saying what the change does (the e2e scenarios wait for these lines). */
  says?: string;
  react(): void;
}

export function watchSettings(
  reactions: readonly SettingReaction[],
  log: { info(m: string): void },
): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    for (const r of reactions) {
      if (!r.sections.some((s) => e.affectsConfiguration(s))) continue;
      r.react();
      if (r.says) log.info(r.says);
    }
  });
}

/** What the runtime's settings reactions act on. */
export interface RuntimeReactionTargets {
  /** Says when a workspace sets a setting that only user settings may set. */
  checkIgnoredSettings(): void;
  /** Providers or their keys changed: the registry takes the new settings. */
  reloadProviders(): void;
  reloadEmbeddings(): void;
  setRetention(purgeDeletedAfterDays: number | undefined): void;
  logPrivateHosts(): void;
  reloadUserHooks(): void;
  /** Permissions or the box: the policy is rebuilt for the next tool call. */
  invalidatePermissions(): void;
  purgeDeletedAfterDays(): number | undefined;
  /** The fleet limits changed: a raised sextant.agents.maxParallelSessions lets waiting requests in. */
  fleetLimitsChanged?(): void;
}

/** The runtime's table: each row's sections, what it says in the output channel, what it reloads. */
export function runtimeReactions(t: RuntimeReactionTargets): SettingReaction[] {
  return [
    { sections: ['sextant'], react: () => t.checkIgnoredSettings() },
    {
      sections: ['sextant.providers'],
      says: 'providers: settings changed; the next request uses them',
      react: () => t.reloadProviders(),
    },
    { sections: ['sextant.providers', 'sextant.memory.embeddings'], react: () => t.reloadEmbeddings() },
    {
      sections: ['sextant.history.purgeDeletedAfterDays'],
      react: () => t.setRetention(t.purgeDeletedAfterDays()),
    },
    { sections: ['sextant.web.allowPrivateHosts'], react: () => t.logPrivateHosts() },
    {
      sections: ['sextant.research'],
      says: 'web search: settings changed; the next search uses them',
      react: () => {},
    },
    { sections: ['sextant.hooks'], says: 'hooks: settings changed', react: () => t.reloadUserHooks() },
    {
      sections: ['sextant.permissions', 'sextant.sandbox'],
      says: 'permissions: settings changed; the policy is rebuilt for the next tool call',
      react: () => t.invalidatePermissions(),
    },
    {
      sections: ['sextant.agents.maxParallelSessions', 'sextant.budget'],
      react: () => t.fleetLimitsChanged?.(),
    },
  ];
}
