// Entry of the chat view (bundled to dist/webview.js + dist/webview.css). Wires the host channel,
// the store and the Markdown renderer into the root element, then asks the host for a snapshot.
// First, before any schema is defined: no eval under our CSP.
import '../extension/protocol/jitless';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import './styles.css';
import { HostChannel } from './host';
import { MarkdownRenderer } from './markdown';
import { ChatStore } from './store';
import { SxApp } from './components/app';
import { startUsageView } from './usage/usage-main';

function start(): void {
  // The Usage panel (usage-panel.ts) loads the same bundle. Not a lazy chunk: zod and the protocol would
  // move to a chunk shared with it, evaluated before jitless above, and zod's JIT probe would hit the CSP.
  if (document.querySelector('sx-usage-view')) {
    startUsageView();
    return;
  }
  const host = new HostChannel();
  const store = new ChatStore();
  const markdown = new MarkdownRenderer(window);
  let app = document.querySelector('sx-app');
  if (!(app instanceof SxApp)) {
    app = document.createElement('sx-app');
    document.body.append(app);
  }
  host.listen((message, receivedAt) => store.handle(message, receivedAt));
  (app as SxApp).ctx = { store, host, markdown };
  host.post({ type: 'ready' });
}

start();
