// `# text` in the composer: a memory the user adds directly. As in Claude Code, they are asked which file
// it goes to — this workspace's `.sextant/memory.md` or their own `~/.sextant/memory.md` — and it is
// appended there by core (core/extensions/memory-file.ts: fixed paths, secrets refused, the safe reader's rule).
import * as vscode from 'vscode';
import type { MemoryScope } from '../protocol';
import { appendMemory, memoryLabels, memoryTargets } from '../core/extensions/memory-file';
import type { WorkspacePort } from '../core/ports';

export interface MemoryHost {
  /** Adds a memory after asking where; `refused(message)` gives the draft back with why (nothing was kept). */
  add(text: string, refused: (message: string) => void): Promise<void>;
}

export function createMemoryHost(deps: {
  workspace: WorkspacePort;
  home: () => string | undefined;
  redact: (text: string) => string;
}): MemoryHost {
  return {
    async add(text, refused) {
      const where = { roots: deps.workspace.roots(), home: deps.home() };
      const labels = memoryLabels(memoryTargets(where.roots, where.home));
      const items: Array<vscode.QuickPickItem & { scope: MemoryScope }> = [];
      if (labels.workspace) items.push({ label: 'This workspace', description: labels.workspace, scope: 'workspace' });
      if (labels.user) items.push({ label: 'You, in every workspace', description: labels.user, scope: 'user' });
      const picked = await vscode.window.showQuickPick(items, {
        title: 'Sextant: keep this memory where?',
        placeHolder: text.length > 80 ? `${text.slice(0, 77)}…` : text,
        ignoreFocusOut: true,
      });
      if (!picked) {
        refused('Not kept: no memory file was picked.');
        return;
      }
      const written = await appendMemory(deps.workspace, where, picked.scope, text, deps.redact);
      if (!written.ok) {
        refused(written.message);
        return;
      }
      void vscode.window.showInformationMessage(
        `Sextant: kept in ${written.label} — it is in every request from now on.`,
      );
    },
  };
}
