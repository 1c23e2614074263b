// How the browser tools word their results: the page's accessibility snapshot (capped), what the
// guard refused, and what happened to the browser since the model last used it.
import type { BrowserPage, PageState, RefusedConnection } from './port';

/** The snapshot text the model gets at most; past it, the rest is cut with a note. */
export const MAX_SNAPSHOT_CHARS = 40_000;

export function capSnapshot(text: string): string {
  if (text.length <= MAX_SNAPSHOT_CHARS) return text;
  const cut = text.lastIndexOf('\n', MAX_SNAPSHOT_CHARS);
  const kept = text.slice(0, cut > 0 ? cut : MAX_SNAPSHOT_CHARS);
  return `${kept}\n[… the snapshot was cut at ${MAX_SNAPSHOT_CHARS.toLocaleString('en-US')} characters]`;
}

export function pageHeading(state: PageState): string {
  return `Page: ${state.title || '(no title)'}\nURL: ${state.url}`;
}

export function refusedNote(refused: readonly RefusedConnection[]): string | undefined {
  if (refused.length === 0) return undefined;
  const shown = refused.slice(0, 8).map((r) => `- ${r.target}: ${r.reason}`);
  if (refused.length > shown.length) shown.push(`- … and ${refused.length - shown.length} more`);
  return `Blocked ${refused.length} connection(s) the page tried to open:\n${shown.join('\n')}`;
}

/** The snapshot with everything the model should know about the page now. */
export async function snapshotResult(
  page: BrowserPage,
  opts: { lead?: string; timeoutMs: number; signal: AbortSignal },
): Promise<string> {
  const snap = await page.snapshot({ timeoutMs: opts.timeoutMs, signal: opts.signal });
  const parts = [opts.lead, pageHeading(snap), refusedNote(page.takeRefused())];
  const how = 'Accessibility snapshot (use the [ref=…] values with browser_click and browser_type):';
  parts.push(`${how}\n${capSnapshot(snap.text)}`);
  return parts.filter(Boolean).join('\n\n');
}
