// "Sextant: Export Session…" and "Export Report…": render the current session or a research report
// (Markdown, HTML or JSON, secrets redacted) and write it to a workspace file chosen in a save dialog.
import * as vscode from 'vscode';
import type { Logger } from '../core/ports';
import { EXPORT_EXTENSIONS, exportFileName, type ExportFormat } from '../core/store/export';
import { exportReport } from '../core/store/export-report';
import type { Report } from '../protocol';
import { markWalkthroughStep } from './walkthrough';
import { findChromium, printHtmlToPdf } from '../platform/chromium-pdf';
import { lazyMermaidRenderer } from './mermaid-host';

const FORMATS: Array<{ label: string; format: ExportFormat }> = [
  { label: 'Markdown', format: 'markdown' },
  { label: 'HTML (self-contained)', format: 'html' },
  { label: 'JSON (versioned schema)', format: 'json' },
];

export interface ExportSource {
  /** The current session's id and title, or undefined while the chat is empty. */
  current(): { id: string; title: string } | undefined;
  render(sessionId: string, format: ExportFormat): string | undefined;
}

export async function exportSessionToWorkspace(
  source: ExportSource,
  format: ExportFormat | undefined,
  log: Logger,
): Promise<void> {
  const session = source.current();
  if (!session) {
    void vscode.window.showInformationMessage('Sextant: nothing to export yet — this chat is empty.');
    return;
  }
  await saveExportToWorkspace(
    { what: 'session', title: session.title, format, render: (f) => source.render(session.id, f) },
    log,
  );
}

/** The sidebar chat exported from the history store: its diagrams drawn, the known keys redacted. */
export async function exportStoredSession(
  o: {
    store: { ready: Promise<unknown>; exportSession: StoredExport };
    current: ExportSource['current'];
    secrets: Iterable<string>;
  },
  format: ExportFormat | undefined,
  log: Logger,
): Promise<void> {
  await o.store.ready;
  const mermaid = lazyMermaidRenderer(log);
  const render: ExportSource['render'] = (id, f) => o.store.exportSession(id, f, { secrets: o.secrets, mermaid });
  return exportSessionToWorkspace({ current: o.current, render }, format, log);
}

type StoredExport = (
  sessionId: string,
  format: ExportFormat,
  opts: { secrets: Iterable<string>; mermaid: ReturnType<typeof lazyMermaidRenderer> },
) => string | undefined;

/** "Export Report…" and a report card's Export button: the report named, else one picked from the chat's. */
export async function exportReportToWorkspace(
  reports: Report[],
  reportId: string | undefined,
  format: ExportFormat | undefined,
  secrets: Iterable<string>,
  log: Logger,
): Promise<void> {
  let report = reportId ? reports.find((r) => r.id === reportId) : reports.length === 1 ? reports[0] : undefined;
  if (!report && !reportId && reports.length > 1) {
    const pick = await vscode.window.showQuickPick(
      reports.map((r) => ({ label: r.title, description: `${r.sources.length} sources`, report: r })),
      { title: 'Sextant: Export Report — which report' },
    );
    if (!pick) return;
    report = pick.report;
  }
  if (!report) {
    void vscode.window.showInformationMessage(
      'Sextant: this chat has no research report to export. Run "Sextant: Research…" first.',
    );
    return;
  }
  const chosen = report;
  if (!format) {
    // PDF beside the three text formats when a browser can print it; otherwise the picker says why not.
    const browser = findChromium(
      vscode.workspace.getConfiguration('sextant.browser').get<string>('executablePath') || undefined,
    );
    const items = [
      ...FORMATS,
      ...('path' in browser ? [{ label: 'PDF (printed by Chromium)', format: 'pdf' as const }] : []),
    ];
    const pick = await vscode.window.showQuickPick(items, {
      title: 'Sextant: Export Report — format',
      ...('reason' in browser ? { placeHolder: `PDF export is not available: ${browser.reason}.` } : {}),
    });
    if (!pick) return;
    if (pick.format === 'pdf' && 'path' in browser) return exportReportPdf(chosen, browser.path, secrets, log);
    format = pick.format as ExportFormat;
  }
  await saveExportToWorkspace(
    {
      what: 'report',
      title: chosen.title,
      format,
      render: (f) => exportReport(chosen, f, { secrets, mermaid: lazyMermaidRenderer(log) }),
    },
    log,
  );
}

/** The report's HTML export printed to a PDF file the user picks. */
async function exportReportPdf(report: Report, browser: string, secrets: Iterable<string>, log: Logger): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: 'Export Sextant report',
    defaultUri: folder
      ? vscode.Uri.joinPath(
          folder,
          '.sextant',
          'exports',
          exportFileName(report.title, 'html').replace(/\.html$/, '.pdf'),
        )
      : undefined,
    filters: { PDF: ['pdf'] },
  });
  if (!target) return;
  const html = exportReport(report, 'html', { secrets, mermaid: lazyMermaidRenderer(log) });
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  try {
    await printHtmlToPdf(browser, html, target.fsPath);
  } catch (e) {
    void vscode.window.showErrorMessage(`Sextant: ${(e as Error).message}`);
    return;
  }
  log.info(`exported report "${report.title}" as PDF to ${target.fsPath}`);
  void vscode.window.showInformationMessage(`Sextant: exported to ${vscode.workspace.asRelativePath(target)}.`);
}

/**
 * Asks for the format (unless given) and a file (default: `.sextant/exports/<title>.<ext>` in the first
 * workspace folder), renders and writes it, and offers to open it. Shared by session and report exports.
 */
export async function saveExportToWorkspace(
  item: {
    what: 'session' | 'report';
    title: string;
    format?: ExportFormat;
    render(format: ExportFormat): string | undefined;
  },
  log: Logger,
): Promise<void> {
  const noun = item.what === 'session' ? 'Session' : 'Report';
  const choice = item.format
    ? FORMATS.find((f) => f.format === item.format)
    : await vscode.window.showQuickPick(FORMATS, { title: `Sextant: Export ${noun} — format` });
  if (!choice) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const ext = EXPORT_EXTENSIONS[choice.format];
  const defaultUri = folder
    ? vscode.Uri.joinPath(folder, '.sextant', 'exports', exportFileName(item.title, choice.format))
    : undefined;
  // The default folder exists before the dialog opens, so the dialog never asks to create it;
  // if the user cancels, a folder we created for nothing is removed again.
  const defaultDir = defaultUri ? vscode.Uri.joinPath(defaultUri, '..') : undefined;
  const createdDir = defaultDir ? await ensureDirectory(defaultDir) : false;
  const target = await vscode.window.showSaveDialog({
    title: `Export Sextant ${item.what}`,
    defaultUri,
    filters: { [choice.label]: [ext] },
  });
  if (!target) {
    if (createdDir && defaultDir) await removeIfEmpty(defaultDir);
    return;
  }
  const content = item.render(choice.format);
  if (content === undefined) throw new Error(`the ${item.what} could not be read from history`);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
  log.info(`exported ${item.what} "${item.title}" as ${choice.format} to ${target.fsPath}`);
  markWalkthroughStep('sessionExported');
  const open = await vscode.window.showInformationMessage(
    `Sextant: exported to ${vscode.workspace.asRelativePath(target)}.`,
    'Open',
  );
  if (open) await vscode.window.showTextDocument(target);
}

/** Creates the folder; true when it did not exist before. */
async function ensureDirectory(dir: vscode.Uri): Promise<boolean> {
  const existed = await vscode.workspace.fs.stat(dir).then(
    () => true,
    () => false,
  );
  if (!existed) await vscode.workspace.fs.createDirectory(dir);
  return !existed;
}

async function removeIfEmpty(dir: vscode.Uri): Promise<void> {
  try {
    if ((await vscode.workspace.fs.readDirectory(dir)).length === 0) await vscode.workspace.fs.delete(dir);
  } catch {
    /* left as is: only tidiness is at stake */
  }
}
