// Palette commands. Each loads the runtime on demand; registering them costs nothing at activation.
import * as vscode from 'vscode';
import type { ChatViewProvider } from './chat-view';
import type { RuntimeHost } from './runtime-host';

export function registerCommands(host: RuntimeHost, view: ChatViewProvider): vscode.Disposable[] {
  const guarded = (id: string, fn: (...args: unknown[]) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await fn(...args);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        host.log.error(`${id} failed: ${message}`);
        void vscode.window.showErrorMessage(`Sextant: ${message}`);
      }
    });
  return [
    guarded('sextant.focusChat', () => view.reveal()),
    guarded('sextant.newChat', async () => {
      await view.reveal();
      await (await host.get()).controller.newChat();
    }),
    guarded('sextant.showHistory', async () => {
      await view.reveal();
      const rt = await host.get();
      host.post({ type: 'showView', view: 'history' });
      await rt.controller.postHistory();
    }),
    guarded('sextant.switchMode', async () => (await host.get()).pickMode()),
    guarded('sextant.selectModel', async () => (await host.get()).pickModel()),
    guarded('sextant.setApiKey', async () => (await host.get()).setApiKey()),
    guarded('sextant.clearApiKey', async () => (await host.get()).clearApiKey()),
    guarded('sextant.setSearchApiKey', async () => (await host.get()).setSearchApiKey()),
    guarded('sextant.clearSearchApiKey', async () => (await host.get()).clearSearchApiKey()),
    guarded('sextant.exportSession', async () => (await host.get()).exportSession()),
    guarded('sextant.showAuditLog', async () => (await host.get()).showAuditLog()),
    // From a diff's title bar the argument is the proposal's URI; from a key or the palette, none.
    guarded('sextant.approveChange', async (target) => (await host.get()).decideChange('approve', target)),
    guarded('sextant.denyChange', async (target) => (await host.get()).decideChange('deny', target)),
  ];
}
