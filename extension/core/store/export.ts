// Exports are pure functions of a stored session: Markdown, HTML (self-contained, sanitised) and
// JSON (versioned; schema in docs/export-schema.md). Every string is redacted before rendering,
// and the rendered text is redacted once more, so a secret split by formatting still cannot leak.
import type { StoredArtifact, StoredSession } from '../ports';
import { createRedactor, redactDeep } from '../security/redact';
import { renderHtml } from './export-html';
import { renderJson } from './export-json';
import { renderMarkdown } from './export-markdown';
import { embedImages } from './export-images';
import { ExportDiagrams } from './export-diagrams';
import type { MermaidRenderer } from '../../protocol';

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
  /** A stored image's bytes (undefined: missing or damaged); the HTML export embeds them. */
  image?: (sha256: string) => Uint8Array | undefined;
  /** Draws Mermaid diagrams in the HTML export (beautiful-mermaid's renderMermaidSVG); without it, their source. */
  mermaid?: MermaidRenderer;
}

export function exportSession(input: ExportInput, format: ExportFormat, opts: ExportOptions = {}): string {
  const diagrams = format === 'html' && opts.mermaid ? new ExportDiagrams(opts.mermaid) : undefined;
  const html = (clean: ExportInput, now: number) => renderHtml(clean, now, diagrams);
  const page = renderRedacted(input, format, opts, { markdown: renderMarkdown, html, json: renderJson });
  // Image bytes and drawn diagrams go in after redaction: a secret pattern must never match inside (and
  // damage) a picture.
  if (format !== 'html') return page;
  const withImages = embedImages(page, opts.image);
  return diagrams ? diagrams.embed(withImages) : withImages;
}

/**
 * Renders `input` in `format` with every string redacted first and the output redacted again (a secret
 * split by formatting still cannot leak). Shared by session and report exports.
 */
export function renderRedacted<T>(
  input: T,
  format: ExportFormat,
  opts: ExportOptions,
  renderers: Record<ExportFormat, (clean: T, now: number) => string>,
): string {
  const redact = createRedactor(opts.secrets ?? []);
  return redact(renderers[format](redactDeep(input, redact), opts.now ?? Date.now()));
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
