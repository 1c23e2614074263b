// Activation does as little as possible: it registers the chat view and the commands and returns.
// Everything heavy (the session controller, the store, tools, the SDKs) lives in other bundles,
// loaded the first time the chat is shown or a command runs (see esbuild.mjs).
import * as vscode from 'vscode';
import { ChatViewProvider, CHAT_VIEW_ID } from './chat-view';
// Only the constant: the panels themselves live in the runtime bundle.
const CHAT_PANEL_TYPE = 'sextant.chatPanel';
import { RuntimeHost } from './runtime-host';
import { AgentsTree } from './agents-tree';
import { registerCommands } from './commands';
import { redactingLogChannel } from './adapters/log-channel';
import { WalkthroughProgress, openWalkthrough, openWalkthroughOnce } from './walkthrough';

let host: RuntimeHost | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const started = performance.now();
  // Every line anything logs passes the redactor (key shapes now, exact key values once known).
  const log = redactingLogChannel(vscode.window.createOutputChannel('Sextant', { log: true }));
  context.subscriptions.push(log);
  host = new RuntimeHost(context, log);
  const progress = new WalkthroughProgress();
  host.observer = (m) => progress.observe(m);
  const view = new ChatViewProvider(context.extensionUri, host, log);
  const rt = host;
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
    new AgentsTree(host),
    // Chats in editor tabs come back after a reload, each on the session its webview last showed.
    vscode.window.registerWebviewPanelSerializer(CHAT_PANEL_TYPE, {
      deserializeWebviewPanel: async (panel, state) => (await rt.get()).restorePanel(panel, state),
    }),
    ...registerCommands(host, view),
    vscode.commands.registerCommand('sextant.getStarted', () => openWalkthrough()),
    // An MCP server's OAuth sign-in comes back to vscode://sextant.sextant/mcp-oauth?code=…&state=….
    vscode.window.registerUriHandler({
      handleUri: async (uri) => {
        if (uri.path === '/mcp-oauth') (await host?.get())?.mcpOAuthRedirect(new URLSearchParams(uri.query));
      },
    }),
  );
  // The first activation after install (the Sextant view opened, or a command run) opens Get Started.
  void openWalkthroughOnce(context.globalState).then(undefined, (err: unknown) =>
    log.warn(`could not open the Get Started walkthrough: ${String(err)}`),
  );
  const ms = performance.now() - started;
  log.info(`Sextant activated in ${ms.toFixed(2)} ms`);
}

export async function deactivate(): Promise<void> {
  // Flushes the store's snapshot and ends background jobs before VS Code exits.
  await host?.dispose();
  host = undefined;
}
