// Exports are pure functions of a stored session: Markdown, HTML (self-contained, sanitised) and
// JSON (versioned; schema in docs/export-schema.md). Every string is redacted before rendering,
// and the rendered text is redacted once more, so a secret split by formatting still cannot leak.
import type { StoredArtifact, StoredSession } from '../ports';
import { createRedactor, redactDeep } from '../security/redact';
import { renderHtml } from './export-html';
import { renderJson } from './export-json';
import { renderMarkdown } from './export-markdown';

export type ExportFormat = 'markdown' | 'html' | 'json';

export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = { markdown: 'md', html: 'html', json: 'json' };

export interface ExportInput {
  session: StoredSession;
  artifacts: StoredArtifact[];
}

export interface ExportOptions {
  /** Exact secret values (API keys) to redact besides the known key shapes. */
  secrets?: Iterable<string>;
  /** Export time (ms since epoch), written into the file. */
  now?: number;
}

export function exportSession(input: ExportInput, format: ExportFormat, opts: ExportOptions = {}): string {
  const redact = createRedactor(opts.secrets ?? []);
  const clean = redactDeep(input, redact);
  const now = opts.now ?? Date.now();
  const text =
    format === 'markdown'
      ? renderMarkdown(clean, now)
      : format === 'html'
        ? renderHtml(clean, now)
        : renderJson(clean, now);
  return redact(text);
}

/** A file name for an export: the title, made safe for every file system. */
export function exportFileName(title: string, format: ExportFormat): string {
  const base =
    title
      .normalize('NFKC')
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+/, '')
      .slice(0, 80)
      .trim() || 'session';
  return `${base}.${EXPORT_EXTENSIONS[format]}`;
}

/** Convenience for callers holding a StoredSession (the export command). */
export function renderExport(
  session: StoredSession,
  format: ExportFormat,
  opts: ExportOptions & { artifacts?: StoredArtifact[] } = {},
): string {
  return exportSession({ session, artifacts: opts.artifacts ?? [] }, format, opts);
}
