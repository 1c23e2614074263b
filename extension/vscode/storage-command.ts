// "Sextant: Show Storage": shows where the history's disk space goes and offers to reclaim it.
// The figures and the work are the store's (core/store); this file only shows them and asks.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { formatBytes, storageLines, type LazySessionStore } from '../core/store';

type StorageStore = Pick<LazySessionStore, 'storageReport' | 'reclaim' | 'compact'>;

interface Item extends vscode.QuickPickItem {
  action?: 'purge' | 'compact';
}

export async function showStorage(store: StorageStore, purgeDays: number, log: Logger): Promise<void> {
  const report = await store.storageReport();
  const items: Item[] = storageLines(report, purgeDays).map((l) => ({ label: l.label, detail: l.detail }));
  items.push({ label: 'Reclaim', kind: vscode.QuickPickItemKind.Separator });
  items.push({
    label: '$(trash) Purge deleted chats now',
    description: report.deletedSessions
      ? `${report.deletedSessions} chats, about ${formatBytes(report.deletedBytes)}; also unused files`
      : 'no deleted chats; removes unused files',
    action: 'purge',
  });
  items.push({
    label: '$(archive) Compact history now',
    description: 'move older chats out of memory into compressed files',
    action: 'compact',
  });
  const pick = await vscode.window.showQuickPick(items, {
    title: 'Sextant: Storage',
    placeHolder: 'Where chat history uses disk space — pick an action to reclaim some',
  });
  if (pick?.action === 'purge') {
    const sure = await vscode.window.showWarningMessage(
      `Purge ${report.deletedSessions} deleted chats for good? They can no longer be restored.`,
      { modal: true },
      'Purge',
    );
    if (sure !== 'Purge') return;
    const r = await store.reclaim({ allDeleted: true });
    log.info(`storage: purged ${r.purgedSessions} chats, ${r.orphanFiles} unused files, ${r.freedBytes} bytes freed`);
    void vscode.window.showInformationMessage(
      `Sextant: purged ${r.purgedSessions} deleted chats and ${r.orphanFiles} unused files; ` +
        `${formatBytes(r.freedBytes)} freed.`,
    );
  } else if (pick?.action === 'compact') {
    const moved = await store.compact();
    void vscode.window.showInformationMessage(`Sextant: moved ${moved} older chats to compressed files.`);
  }
}
