// A web page a report cites, opened at the passage a claim rests on: the page's text as it was read
// (kept with the session, core/store/research-sources.ts) in a read-only editor — a virtual document,
// so nothing is written to disk — with the quote selected; the original URL one click away in a
// notification beside it. The offsets are the verifier's: the document's text is exactly the stored one.
import * as vscode from 'vscode';
import type { StoredResearch } from '../core/ports';

export const SOURCE_SCHEME = 'sextant-source';

type ReadResearch = (reportId: string) => StoredResearch | undefined;

/** sextant-source:/<report id>/<n>/<title>.md — the path names the source; the title is for the tab. */
function sourceUri(reportId: string, n: number, title: string): vscode.Uri {
  const name =
    title
      .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
      .trim()
      .slice(0, 60) || `source-${n}`;
  return vscode.Uri.from({ scheme: SOURCE_SCHEME, path: `/${encodeURIComponent(reportId)}/${n}/${name}.md` });
}

function sourceOf(uri: vscode.Uri, read: ReadResearch): StoredResearch['sources'][number] | undefined {
  const [, reportId, n] = uri.path.split('/');
  return read(decodeURIComponent(reportId ?? ''))?.sources.find((s) => s.n === Number(n));
}

/** The provider of the stored pages' texts (registered once per window). */
export function registerSourceDocuments(read: ReadResearch): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SOURCE_SCHEME, {
    provideTextDocumentContent: (uri) => sourceOf(uri, read)?.text ?? 'This source is no longer stored.',
  });
}

/** Opens the source at the quote (characters `start`–`end` of its stored text). */
export async function openSourceQuote(
  m: { reportId: string; n: number; start: number; end: number },
  read: ReadResearch,
  log: Pick<vscode.LogOutputChannel, 'warn'>,
): Promise<void> {
  const src = read(m.reportId)?.sources.find((s) => s.n === m.n);
  if (!src) {
    log.warn(`openSourceQuote: source [${m.n}] of ${m.reportId} is not stored`);
    void vscode.window.showWarningMessage(`Sextant: the text of source [${m.n}] is not stored with this chat.`);
    return;
  }
  const doc = await vscode.workspace.openTextDocument(sourceUri(m.reportId, m.n, src.title || src.url));
  const selection = new vscode.Range(doc.positionAt(m.start), doc.positionAt(m.end));
  await vscode.window.showTextDocument(doc, { selection, preview: true });
  const url = src.finalUrl ?? src.url;
  if (/^https?:/i.test(url)) {
    const pick = await vscode.window.showInformationMessage(`[${m.n}] ${src.title || url}`, 'Open original page');
    if (pick) await vscode.env.openExternal(vscode.Uri.parse(url));
  }
}
