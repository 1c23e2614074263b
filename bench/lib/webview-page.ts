// The chat view in headless Chromium for benchmarks: the real HTML shell and CSP, a production
// bundle, and a stub VS Code API. (The tests have their own harness; nothing here imports test/.)
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../test/fixtures/chromium';
import { buildWebviewHtml } from '../../extension/vscode/webview-html';

export interface BenchPage {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

function stub(): void {
  const w = window as unknown as Record<string, unknown>;
  w.__renderTimings = [];
  w.__keepTimings = false;
  window.addEventListener('sextant-render', (e) => {
    if (w.__keepTimings) (w.__renderTimings as unknown[]).push((e as CustomEvent).detail);
  });
  w.acquireVsCodeApi = () => ({ postMessage() {}, getState: () => null, setState() {} });
}

export async function openBenchPage(distDir: string): Promise<BenchPage> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') {
      const origin = `http://${req.headers.host}`;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        buildWebviewHtml({
          scriptUri: `${origin}/webview.js`,
          styleUri: `${origin}/webview.css`,
          cspSource: origin,
          nonce: randomBytes(18).toString('base64'),
        }),
      );
      return;
    }
    if (path === '/webview.js' || path === '/webview.css' || /^\/webview-chunks\/[\w-]+\.js$/.test(path)) {
      res.writeHead(200, { 'content-type': path.endsWith('.js') ? 'text/javascript' : 'text/css' });
      res.end(readFileSync(join(distDir, path.slice(1))));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 420, height: 900 } });
  await page.route('**/*', (route) =>
    route.request().url().startsWith(`http://127.0.0.1:${address.port}/`) ? route.continue() : route.abort(),
  );
  await page.addInitScript(stub);
  await page.goto(`http://127.0.0.1:${address.port}/`);
  await page.waitForFunction(() => customElements.get('sx-app') !== undefined);
  return {
    browser,
    page,
    close: async () => {
      await browser.close();
      server.close();
    },
  };
}
