// Palette commands. Each loads the runtime on demand; registering them costs nothing at activation.
import * as vscode from 'vscode';
import { withoutLinks } from '../core/security/plain-text';
import type { ChatViewProvider } from './chat-view';
import type { RuntimeHost } from './runtime-host';
import { errorText } from '../core/util/error-text';

export function registerCommands(host: RuntimeHost, view: ChatViewProvider): vscode.Disposable[] {
  const guarded = (id: string, fn: (...args: unknown[]) => Promise<unknown>) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        await fn(...args);
      } catch (err) {
        const message = errorText(err);
        host.log.error(`${id} failed: ${message}`);
        // An error can quote a file name or a file's text: no clickable links in the notification.
        void vscode.window.showErrorMessage(withoutLinks(`Sextant: ${message}`));
      }
    });
  return [
    guarded('sextant.focusChat', () => view.reveal()),
    guarded('sextant.newChat', async () => {
      await view.reveal();
      // Through the message path, so it waits like the view's own messages (the last chat reopening first).
      await (await host.get()).handle({ type: 'newChat' });
    }),
    guarded('sextant.showHistory', async () => {
      await view.reveal();
      const rt = await host.get();
      host.post({ type: 'showView', view: 'history' });
      await rt.handle({ type: 'history' });
    }),
    guarded('sextant.newChatInEditor', async () => (await host.get()).openInEditor()),
    guarded('sextant.showAgents', () => Promise.resolve(vscode.commands.executeCommand('sextant.agents.focus'))),
    guarded('sextant.agents.open', async (item) => (await host.get()).agents.open(item)),
    guarded('sextant.agents.stop', async (item) => (await host.get()).agents.stop(item)),
    guarded('sextant.agents.approve', async (item) => (await host.get()).agents.decide(item, 'approve')),
    guarded('sextant.agents.deny', async (item) => (await host.get()).agents.decide(item, 'deny')),
    guarded('sextant.agents.continue', async (item) => (await host.get()).agents.continue(item)),
    guarded('sextant.newChatInWorktree', async () => (await host.get()).newChatInWorktree()),
    guarded('sextant.mergeBackWorktree', async () => (await host.get()).mergeBackWorktree()),
    guarded('sextant.agents.mergeBack', async (item) => (await host.get()).agents.mergeBack(item)),
    guarded('sextant.agents.createPullRequest', async (item) => (await host.get()).agents.createPullRequest(item)),
    guarded('sextant.agents.filter', async () => (await host.get()).agents.pickFilter()),
    guarded('sextant.agents.clearEnded', async () => (await host.get()).agents.clearEnded()),
    guarded('sextant.switchMode', async () => (await host.get()).pickMode()),
    guarded('sextant.selectModel', async () => (await host.get()).pickModel()),
    guarded('sextant.setApiKey', async () => (await host.get()).setApiKey()),
    guarded('sextant.clearApiKey', async () => (await host.get()).clearApiKey()),
    guarded('sextant.setSearchApiKey', async () => (await host.get()).setSearchApiKey()),
    guarded('sextant.clearSearchApiKey', async () => (await host.get()).clearSearchApiKey()),
    guarded('sextant.telemetry.setHeaders', async () => (await host.get()).setTelemetryHeaders()),
    guarded('sextant.exportSession', async () => (await host.get()).exportSession()),
    guarded('sextant.compactNow', async () => {
      await view.reveal();
      const compaction = await (await host.get()).controller.compactNow();
      if (compaction)
        void vscode.window.showInformationMessage(
          `Sextant: ${compaction.replaces} earlier messages compacted into a brief ` +
            '(open the marker in the chat to read it).',
        );
    }),
    guarded('sextant.showAuditLog', async () => (await host.get()).showAuditLog()),
    guarded('sextant.showStorage', async () => (await host.get()).showStorage()),
    guarded('sextant.showUsage', async () => (await host.get()).showUsage()),
    guarded('sextant.mcpServers', async () => (await host.get()).showMcpServers()),
    guarded('sextant.addMcpServer', async () => (await host.get()).addMcpServer()),
    guarded('sextant.plugins', async () => (await host.get()).plugins.show()),
    guarded('sextant.addPluginMarketplace', async () => (await host.get()).plugins.addMarketplace()),
    guarded('sextant.installPlugin', async () => (await host.get()).plugins.install()),
    guarded('sextant.research', async () => {
      const question = await askQuestion('Sextant: Research', 'What should Sextant research on the web?');
      if (!question) return;
      await view.reveal();
      await (await host.get()).research(question, { plan: false });
    }),
    guarded('sextant.researchSelection', async () => {
      const topic =
        selectedText() ?? (await askQuestion('Sextant: Research Selection', 'Nothing is selected: what topic?'));
      if (!topic) return;
      await view.reveal();
      await (await host.get()).research(topic, { plan: false });
    }),
    guarded('sextant.planResearch', async () => {
      const question = await askQuestion('Sextant: Plan Research', 'What should the research plan answer?');
      if (!question) return;
      await view.reveal();
      await (await host.get()).research(question, { plan: true });
    }),
    guarded('sextant.exportReport', async () => (await host.get()).exportReport()),
    // Issue 41: the Source Control title's button passes its SourceControl; a comment thread's action, the thread.
    guarded('sextant.git.generateCommitMessage', async (scm) => (await host.get()).git.generateCommitMessage(scm)),
    guarded('sextant.git.createPullRequest', async (arg) => (await host.get()).git.createPullRequest(arg)),
    guarded('sextant.review.applyFix', async (target) => (await host.get()).git.applyFix(target)),
    guarded('sextant.review.clearFindings', async () => (await host.get()).git.clearFindings()),
    // From a diff's title bar the argument is the proposal's URI; from a key or the palette, none.
    guarded('sextant.approveChange', async (target) => (await host.get()).decideChange('approve', target)),
    guarded('sextant.denyChange', async (target) => (await host.get()).decideChange('deny', target)),
  ];
}

/** The active editor's selection as a research topic (whitespace collapsed, capped), if there is one. */
function selectedText(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) return undefined;
  const text = editor.document.getText(editor.selection).replace(/\s+/g, ' ').trim();
  return text ? text.slice(0, 4000) : undefined;
}

function askQuestion(title: string, prompt: string): Promise<string | undefined> {
  return Promise.resolve(
    vscode.window.showInputBox({
      title,
      prompt,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : 'Write a question or a topic.'),
    }),
  ).then((v) => v?.trim() || undefined);
}
