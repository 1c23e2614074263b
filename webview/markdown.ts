// Model output → safe HTML. marked renders Markdown; raw HTML the model writes is shown as text
// (but for a few formatting tags, see raw-html.ts); DOMPurify (an instance of our own, allowing
// only the tags our renderer produces) is the second wall. Two rules go beyond DOMPurify's
// defaults because a chat with an AI is an exfiltration target:
//  - no remote image ever loads (an image URL can carry chat content to a third party): a Markdown
//    image pointing anywhere but a data: raster becomes a plain link (a raw <img> tag is text);
//  - nothing but http(s)/mailto links survive, and links never navigate the view (the host opens them).
import { Marked, type Tokens } from 'marked';
import createDOMPurify, { type Config } from 'dompurify';
import { ALLOWED_RAW_TAGS, canonicalTag, selectRenderableRawHtml } from './raw-html';
import { mathExtensions } from '../extension/protocol';

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const SAFE_DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp);base64,[a-z0-9+/=\s]*$/i;
const SAFE_LINK = /^(?:https?:|mailto:)/i;
/** A workspace file, optionally at a line: `src/a.ts`, `src/a.ts#L42` (/review's findings). No scheme, no colon. */
export const FILE_LINK = /^([\w@+-][\w@+./-]*)(?:#L(\d+))?$/;

/** An image the view may show inline: only data: rasters (no network, no script). */
export function isInlineImage(src: string): boolean {
  return SAFE_DATA_IMAGE.test(src.trim());
}

/** The link a remote image turns into: the text says it is an image and names where it points. */
function imageAsLink(href: string, alt: string): string {
  const label = `Image: ${alt || href}`;
  return SAFE_LINK.test(href)
    ? `<a href="${escapeHtml(href)}" class="image-link" title="${escapeHtml(href)}">${escapeHtml(label)}</a>`
    : `<span class="image-link">${escapeHtml(label)}</span>`;
}

/** What marked produces from Markdown, plus our image links; nothing else survives. */
const MARKDOWN_TAGS = [
  'a',
  'blockquote',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'li',
  'ol',
  'p',
  'pre',
  'span',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];

const PURIFY_CONFIG: Config = {
  ALLOWED_TAGS: [...new Set([...MARKDOWN_TAGS, ...ALLOWED_RAW_TAGS])],
  // `class` only ever comes from our renderer (raw HTML is escaped before it gets here).
  ALLOWED_ATTR: ['href', 'title', 'rel', 'class', 'src', 'alt', 'align', 'start'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
};

export class MarkdownRenderer {
  private readonly marked: Marked;
  private readonly purify: ReturnType<typeof createDOMPurify>;
  /** The raw-HTML tokens of the text being rendered that may render as markup. */
  private renderableRawHtml = new WeakSet<object>();

  constructor(win: Window = window) {
    this.marked = new Marked({
      gfm: true,
      breaks: false,
      // No HTML blocks: a line starting with `<style>` or `<!--` is an ordinary paragraph, so an
      // unclosed one cannot turn everything after it into one raw block.
      tokenizer: { html: () => undefined },
      renderer: {
        html: (token: Tokens.HTML | Tokens.Tag): string =>
          this.renderableRawHtml.has(token) ? canonicalTag(token.text) : escapeHtml(token.text),
        image({ href, text }: Tokens.Image): string {
          return isInlineImage(href)
            ? `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}">`
            : imageAsLink(href, text);
        },
        code({ text, lang }: Tokens.Code): string {
          const language = (lang ?? '').match(/^[\w+#.-]{1,32}/)?.[0] ?? '';
          const cls = language ? ` class="language-${escapeHtml(language)}"` : '';
          return `<pre><code${cls}>${escapeHtml(text.replace(/\n$/, ''))}</code></pre>\n`;
        },
      },
    });
    // Math is marked here and typeset after render by its own lazily loaded chunk (rich-blocks.ts), as
    // code blocks are highlighted: the TeX stays the element's text until then, and if typesetting fails.
    this.marked.use({
      extensions: mathExtensions((tex, display) =>
        display
          ? `<pre><code class="language-math">${escapeHtml(tex)}</code></pre>\n`
          : `<code class="math-inline">${escapeHtml(tex)}</code>`,
      ),
    });
    // Its own instance: hooks and config stay local to this renderer.
    this.purify = createDOMPurify(win as unknown as Parameters<typeof createDOMPurify>[0]);
    this.purify.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeName === 'IMG') {
        // Second wall: only our renderer makes <img>, and only for data: rasters.
        const src = node.getAttribute('src') ?? '';
        if (!isInlineImage(src)) {
          const doc = node.ownerDocument;
          const holder = doc.createElement('span');
          holder.innerHTML = imageAsLink(src, node.getAttribute('alt') ?? '');
          node.replaceWith(...holder.childNodes);
        }
        return;
      }
      if (node.nodeName === 'A') {
        const href = node.getAttribute('href');
        if (href !== null && !SAFE_LINK.test(href) && !FILE_LINK.test(href) && !href.startsWith('#'))
          node.removeAttribute('href');
        if (href) node.setAttribute('title', node.getAttribute('title') || href);
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
  }

  /** Renders Markdown to sanitized HTML. Never throws: on a parser failure the text shows as text. */
  render(markdown: string): string {
    let html: string;
    try {
      const tokens = this.marked.lexer(markdown);
      this.renderableRawHtml = selectRenderableRawHtml(tokens);
      html = this.marked.parser(tokens);
    } catch {
      html = `<pre>${escapeHtml(markdown)}</pre>`;
    }
    return this.purify.sanitize(html, PURIFY_CONFIG);
  }
}
