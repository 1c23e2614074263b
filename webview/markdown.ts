// Model output → safe HTML. marked renders Markdown; DOMPurify (an instance of our own, HTML
// profile only) removes anything that could run script or load a resource. Two rules go beyond
// DOMPurify's defaults because a chat with an AI is an exfiltration target:
//  - no remote image ever loads (an image URL can carry chat content to a third party): Markdown
//    images and raw <img> tags pointing anywhere but a data: raster become plain links;
//  - nothing but http(s)/mailto links survive, and links never navigate the view (the host opens them).
import { Marked, type Tokens } from 'marked';
import createDOMPurify, { type Config } from 'dompurify';

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

const PURIFY_CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    'style',
    'link',
    'meta',
    'base',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'video',
    'audio',
    'source',
    'track',
    'picture',
    'dialog',
    'template',
    'slot',
    'noscript',
    'svg',
    'math',
  ],
  FORBID_ATTR: [
    'style',
    'srcset',
    'action',
    'formaction',
    'ping',
    'background',
    'poster',
    'id',
    'name',
    'autofocus',
    'tabindex',
    'target',
    'is',
  ],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
};

export class MarkdownRenderer {
  private readonly marked: Marked;
  private readonly purify: ReturnType<typeof createDOMPurify>;

  constructor(win: Window = window) {
    this.marked = new Marked({
      gfm: true,
      breaks: false,
      renderer: {
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
    // Its own instance: hooks and config stay local to this renderer.
    this.purify = createDOMPurify(win as unknown as Parameters<typeof createDOMPurify>[0]);
    this.purify.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeName === 'IMG') {
        // Raw HTML images get the same treatment as Markdown ones.
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
        if (href !== null && !SAFE_LINK.test(href) && !href.startsWith('#')) node.removeAttribute('href');
        if (href) node.setAttribute('title', node.getAttribute('title') || href);
        node.setAttribute('rel', 'noopener noreferrer');
      }
    });
  }

  /** Renders Markdown to sanitized HTML. Never throws: on a parser failure the text shows as text. */
  render(markdown: string): string {
    let html: string;
    try {
      html = this.marked.parse(markdown, { async: false });
    } catch {
      html = `<pre>${escapeHtml(markdown)}</pre>`;
    }
    return this.purify.sanitize(html, PURIFY_CONFIG);
  }
}
