// A research-mode view for the report tests (rich blocks, Mermaid): it records the lazy chunks the page
// loads (a renderer must load only with its first block), and closing it asserts what every such test
// must leave true — no CSP violation in the live page, no page error, no request to another origin.
import assert from 'node:assert/strict';
import { deliver, type useViewEnvironment, type ViewHarness } from './harness';
import { snapshot, snapshotMessage } from './fixtures';

export interface ResearchView {
  view: ViewHarness;
  /** File names of the chunks loaded so far (dist/webview-chunks/), live. */
  chunks: string[];
}

export async function openResearchView(env: ReturnType<typeof useViewEnvironment>): Promise<ResearchView> {
  const view = await env.open();
  const chunks: string[] = [];
  view.page.on('request', (r) => {
    if (r.url().includes('/webview-chunks/')) chunks.push(r.url().split('/').pop() ?? '');
  });
  await deliver(view, snapshotMessage(snapshot({ mode: 'research' })));
  return { view, chunks };
}

export async function closeCheckedView(view: ViewHarness): Promise<void> {
  // Reports about markup parsed in a detached document (DOMPurify, our own parse) refuse nothing that
  // was shown; the live page must have none.
  assert.deepEqual(
    (await view.violations()).filter((v) => v.live),
    [],
  );
  assert.deepEqual(view.pageErrors, []);
  assert.deepEqual(view.foreignRequests, []);
  await view.close();
}
