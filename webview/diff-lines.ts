// A unified diff as lines coloured the way VS Code's diff editor colours them (styles.css: the theme's
// diffEditor colours, with the +/− kept so the meaning never rests on colour alone). Shared by the
// approval card, a finished edit's tool card and a plan step that carries a diff.
import { html, type TemplateResult } from 'lit';

/** True when the text holds a unified diff: a hunk header, or a ---/+++ file header pair. */
export function looksLikeDiff(text: string): boolean {
  return /^@@ .* @@/m.test(text) || (/^--- \S/m.test(text) && /^\+\+\+ \S/m.test(text));
}

export function diffLineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---')) return 'diff-line diff-file';
  if (line.startsWith('+')) return 'diff-line diff-add';
  if (line.startsWith('-')) return 'diff-line diff-del';
  if (line.startsWith('@@')) return 'diff-line diff-hunk';
  return 'diff-line';
}

/**
 * The diff inside a `<pre>` of class `cls`; each line a span, its newline kept for copying. The block
 * scrolls when long, so it takes the focus (Tab, then the arrow keys scroll it).
 */
export function renderDiff(text: string, cls: string): TemplateResult {
  return html`<pre class=${`${cls} diff`} tabindex="0">${text
    .split('\n')
    .map((line) => html`<span class=${diffLineClass(line)}>${line}</span>\n`)}</pre>`;
}

/** Text that is a diff renders coloured; anything else as plain preformatted text. */
export function renderTextOrDiff(text: string, cls: string): TemplateResult {
  return looksLikeDiff(text) ? renderDiff(text, cls) : html`<pre class=${cls} tabindex="0">${text}</pre>`;
}
