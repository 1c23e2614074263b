// The Usage panel's start (a chunk of the webview bundle, loaded when the page holds <sx-usage-view>):
// its own typed channel — messages are validated against the Usage protocol, anything else is dropped.
import { UsageOutboundSchema, type UsageInbound } from '../../extension/protocol';
import { SxUsageView } from '../components/usage-view';

export function startUsageView(): void {
  const api = acquireVsCodeApi();
  const view = document.querySelector('sx-usage-view');
  if (!(view instanceof SxUsageView)) return;
  view.post = (m: UsageInbound) => api.postMessage(m);
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    const parsed = UsageOutboundSchema.safeParse(event.data);
    if (!parsed.success) {
      console.warn('[sextant] ignored a malformed message from the host:', parsed.error.issues.slice(0, 3));
      return;
    }
    view.receive(parsed.data);
  });
  view.post({ type: 'usageReady' });
  view.post({ type: 'usageQuery', range: view.range });
}
