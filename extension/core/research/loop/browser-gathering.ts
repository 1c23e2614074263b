// A page whose fetch gave almost no readable text (a JavaScript app's empty shell) is read again in the
// browser, read-only (browser-reader.ts): the user is asked once per origin, the read is a
// `browser_navigate` card of the run, and the page's accessibility snapshot becomes the source's text.
// When the browser is not offered, the user says no, or the read fails, the fetched text stays.
import type { FetchedPage } from '../../web/types';
import { ResearchBrowsing, THIN_PAGE_CHARS } from '../browser-reader';
import type { ResearchRecord } from './research-record';

const browsing = new WeakMap<ResearchRecord, ResearchBrowsing>();

function browsingOf(rec: ResearchRecord): ResearchBrowsing | undefined {
  const browser = rec.o.services.browser;
  if (!browser || !rec.o.approveBrowse) return undefined;
  let b = browsing.get(rec);
  if (!b) {
    b = new ResearchBrowsing(browser, rec.o.approveBrowse);
    browsing.set(rec, b);
  }
  return b;
}

/** `page`, or the same page with the browser's text when the fetched one is too thin to use. */
export async function withBrowserText(
  rec: ResearchRecord,
  page: FetchedPage,
  signal: AbortSignal,
): Promise<FetchedPage> {
  if (page.text.trim().length >= THIN_PAGE_CHARS) return page;
  const b = browsingOf(rec);
  if (!b) return page;
  const url = page.finalUrl || page.url;
  const callId = rec.card('browser_navigate', url);
  const started = rec.o.now();
  try {
    const read = await b.read(url, signal);
    if (!read || read.text.trim().length <= page.text.trim().length) {
      rec.cardDone(callId, 'browser_navigate', url, started, {
        status: 'error',
        summary: read ? 'the browser found no more text than the fetch' : 'not opened: the user did not allow it',
      });
      return page;
    }
    rec.cardDone(callId, 'browser_navigate', url, started, {
      status: 'ok',
      preview: `read in the browser · ${read.text.length.toLocaleString('en')} characters`,
    });
    return { ...page, text: read.text, markdown: read.text };
  } catch (e) {
    rec.cardDone(callId, 'browser_navigate', url, started, {
      status: signal.aborted ? 'aborted' : 'error',
      summary: `not read in the browser: ${(e as Error).message}`,
    });
    return page;
  }
}

/** The run is over: its browser closes. */
export async function closeBrowsing(rec: ResearchRecord): Promise<void> {
  const b = browsing.get(rec);
  browsing.delete(rec);
  await b?.close().catch(() => undefined);
}
