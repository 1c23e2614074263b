// The entry of dist/research-html.js: the HTML → Markdown converter (html-to-markdown.ts) and, when
// the file is started as a worker thread, the loop that serves conversions for the extension host.
// Readability and turndown take about a second on a multi-MB page; run on the host's thread they
// would stall the chat, the editor's extension features and every other request (html-worker-client.ts
// starts this file as a worker). Required directly (tests, fallbacks) it is the plain converter.
import { isMainThread, parentPort } from 'node:worker_threads';
import { htmlToMarkdown } from './html-to-markdown';
import type { HtmlWorkerReply, HtmlWorkerRequest } from './html-worker-client';

export { htmlToMarkdown } from './html-to-markdown';

const port = isMainThread ? null : parentPort;
if (port)
  port.on('message', (req: HtmlWorkerRequest) => {
    let reply: HtmlWorkerReply;
    try {
      reply = { id: req.id, ok: true, result: htmlToMarkdown(new TextDecoder().decode(req.html), req.url) };
    } catch (e) {
      reply = { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
