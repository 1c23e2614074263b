// HTML → Markdown off the extension host's thread: an HtmlConverter that hands each page to a worker
// thread running dist/research-html.js (html-worker.ts). One worker, started on the first HTML page,
// converting one page at a time (pages wait their turn; the fetch pool reads several at once). Each
// conversion has a size cap (the HTML is cut at MAX_HTML_CHARS: Readability finds the article near the
// top, and the rest only costs time) and a timeout (a page that takes longer ends the worker, which
// restarts for the next page). An idle worker ends after a minute, and never keeps the process alive.
import { Worker } from 'node:worker_threads';
import type { HtmlConverter, ReadableHtml } from './html-converter';

export interface HtmlWorkerRequest {
  id: number;
  /** The HTML as UTF-8, its buffer transferred (not copied) to the worker. */
  html: Uint8Array;
  url: string;
}

export type HtmlWorkerReply = { id: number; ok: true; result: ReadableHtml } | { id: number; ok: false; error: string };

/** HTML beyond this many characters is not parsed (a 10 MB download cap still applies before). */
export const MAX_HTML_CHARS = 3_000_000;
export const CONVERT_TIMEOUT_MS = 20_000;
const IDLE_MS = 60_000;

export interface HtmlWorkerOptions {
  /** The worker script: dist/research-html.js. */
  file: string;
  timeoutMs?: number;
  maxHtmlChars?: number;
}

interface Job {
  req: HtmlWorkerRequest;
  resolve(r: ReadableHtml): void;
  reject(e: Error): void;
}

const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

export class HtmlWorkerConverter implements HtmlConverter {
  private worker: Worker | undefined;
  private readonly queue: Job[] = [];
  private current: { job: Job; timer?: ReturnType<typeof setTimeout> } | undefined;
  private readonly online = new WeakSet<Worker>();
  private idle: ReturnType<typeof setTimeout> | undefined;
  private nextId = 0;

  constructor(private readonly opts: HtmlWorkerOptions) {}

  htmlToMarkdown(html: string, url: string): Promise<ReadableHtml> {
    const cap = this.opts.maxHtmlChars ?? MAX_HTML_CHARS;
    const req = {
      id: ++this.nextId,
      html: new TextEncoder().encode(html.length > cap ? html.slice(0, cap) : html),
      url,
    };
    return new Promise<ReadableHtml>((resolve, reject) => {
      this.queue.push({ req, resolve, reject });
      this.pump();
    });
  }

  /** Ends the worker (pages waiting are refused). */
  async dispose(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    for (const job of this.queue.splice(0)) job.reject(new Error('the HTML converter was closed'));
    if (this.current) this.finish(new Error('the HTML converter was closed'));
    if (this.idle) clearTimeout(this.idle);
    await w?.terminate();
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    if (this.idle) clearTimeout(this.idle);
    const job = this.queue.shift() as Job;
    const worker = this.start();
    const current: { job: Job; timer?: ReturnType<typeof setTimeout> } = { job };
    this.current = current;
    // The clock starts once the thread runs: starting it is not the page's fault.
    const arm = () => {
      if (this.current !== current) return;
      current.timer = setTimeout(() => {
        // Stuck on this page: the worker goes (a new one serves the next page).
        this.finish(new Error(`converting the page took longer than ${seconds(this.timeout())}`));
        this.stop(worker);
      }, this.timeout());
    };
    if (this.online.has(worker)) arm();
    else worker.once('online', arm);
    worker.postMessage(job.req, [job.req.html.buffer as ArrayBuffer]);
  }

  private timeout(): number {
    return this.opts.timeoutMs ?? CONVERT_TIMEOUT_MS;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.opts.file);
    // A research run or web_fetch is waiting on it, not the process: it never keeps Node alive.
    worker.unref();
    worker.once('online', () => this.online.add(worker));
    worker.on('message', (reply: HtmlWorkerReply) => {
      if (!this.current || this.current.job.req.id !== reply.id) return;
      if (reply.ok) this.finish(undefined, reply.result);
      else this.finish(new Error(reply.error));
    });
    worker.on('error', (e) => {
      this.finish(e instanceof Error ? e : new Error(String(e)));
      this.stop(worker);
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.finish(new Error('the HTML converter stopped'));
    });
    this.worker = worker;
    return worker;
  }

  private stop(worker: Worker): void {
    if (this.worker === worker) this.worker = undefined;
    void worker.terminate();
  }

  private finish(error: Error | undefined, result?: ReadableHtml): void {
    const cur = this.current;
    if (!cur) return;
    this.current = undefined;
    if (cur.timer) clearTimeout(cur.timer);
    if (error) cur.job.reject(error);
    else cur.job.resolve(result as ReadableHtml);
    this.pump();
    if (!this.current && this.worker) {
      const w = this.worker;
      this.idle = setTimeout(() => this.stop(w), IDLE_MS);
      this.idle.unref();
    }
  }
}
