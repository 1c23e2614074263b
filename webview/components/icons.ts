// A few inline SVG icons (16px, currentColor), so the view ships no icon font.
import { svg, type SVGTemplateResult } from 'lit';

/** One 16px icon: a single path filled with the current text colour, hidden from screen readers. */
function icon(d: string): SVGTemplateResult {
  return svg`<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false"><path
    fill="currentColor"
    d=${d}
  /></svg>`;
}

export const iconAdd = icon('M14 7v1H8v6H7V8H1V7h6V1h1v6h6z');
export const iconHistory = icon(
  'M13.5 8a5.5 5.5 0 0 1-10.78 1.5h1.04A4.5 4.5 0 1 0 4.3 5H6v1H2.5V2.5h1v1.9A5.5 5.5 0 0 1 13.5 8z' +
    'M8 4v4.2l2.6 2.1-.6.8L7 8.7V4h1z',
);
export const iconExport = icon('M8 1.3l3.4 3.4-.7.7L8.5 3.2V10h-1V3.2L5.3 5.4l-.7-.7L8 1.3zM3 9v5h10V9h1v6H2V9h1z');
export const iconBack = icon('M6.4 3.3l.7.7L3.6 7.5H14v1H3.6l3.5 3.5-.7.7L1.7 8l4.7-4.7z');
