// The one table of settings → what reloads when they change, and the one listener that applies it.
// A new setting that needs more than "read on every use" adds a row here (see docs/ARCHITECTURE.md,
// "Adding a setting"); nothing else in the runtime listens to configuration changes.
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
