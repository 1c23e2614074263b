// Caps a page's Markdown so one long page cannot fill the model's context: cut at a paragraph
// boundary near the cap, and say what was cut so the model knows the page goes on.

export const MAX_MARKDOWN_CHARS = 100_000;

export interface CappedMarkdown {
  markdown: string;
  truncated: boolean;
}

export function capMarkdown(markdown: string, max = MAX_MARKDOWN_CHARS): CappedMarkdown {
  if (markdown.length <= max) return { markdown, truncated: false };
  let cut = markdown.lastIndexOf('\n\n', max);
  if (cut < max * 0.8) cut = markdown.lastIndexOf('\n', max);
  if (cut < max * 0.8) cut = max;
  const rest = markdown.length - cut;
  return {
    markdown:
      `${markdown.slice(0, cut).trimEnd()}\n\n[… the page continues: ${rest.toLocaleString('en-US')} more characters ` +
      `were cut here (pages are capped at ${max.toLocaleString('en-US')} characters).]`,
    truncated: true,
  };
}
