// HTML → the readable part → Markdown: linkedom builds a DOM in Node (no scripts run, nothing is
// loaded), Mozilla's Readability picks the article the way Firefox's Reader View does, and turndown
// writes it as Markdown. This file is the entry of its own bundle (dist/research-html.js, see
// esbuild.mjs) and is loaded lazily through html-converter.ts's contract: nothing else in extension/
// may import it by value, or the three libraries would land in runtime.js.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import type { ReadableHtml } from './html-converter';

export type { ReadableHtml } from './html-converter';

/** Elements that never carry readable text (dropped when Readability finds no article). */
const JUNK = 'script, style, noscript, template, iframe, object, embed, svg, canvas, link, meta, form, button';

/** Elements turndown leaves out of the Markdown. */
const DROPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'SVG',
  'CANVAS',
  'FORM',
]);

/** Elements that end a line of text. */
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TR',
  'UL',
]);

function parse(html: string, url: string): Document {
  const { document } = parseHTML(html);
  const doc = document as unknown as Document;
  // linkedom has no URL of its own; Readability resolves relative links against these.
  let base = url;
  const href = doc.querySelector('base[href]')?.getAttribute('href');
  if (href) {
    try {
      base = new URL(href, url).href;
    } catch {
      /* a broken <base>: keep the page URL */
    }
  }
  Object.defineProperty(doc, 'documentURI', { value: url, configurable: true });
  Object.defineProperty(doc, 'baseURI', { value: base, configurable: true });
  return doc;
}

function absolute(value: string | null, base: string): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value, base).href;
  } catch {
    return undefined;
  }
}

/** Plain text of a subtree: blocks on their own lines, table cells apart, runs of spaces collapsed. */
function plainText(root: Node): string {
  const out: string[] = [];
  const walk = (node: Node, pre: boolean) => {
    if (node.nodeType === 3) {
      // Line breaks in the source are only spaces, except inside <pre>.
      const data = (node as Text).data;
      out.push(pre ? data : data.replace(/\s+/g, ' '));
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 11 && node.nodeType !== 9) return;
    const name = (node as Element).tagName?.toUpperCase() ?? '';
    if (name === 'SCRIPT' || name === 'STYLE' || name === 'NOSCRIPT' || name === 'TEMPLATE') return;
    const block = BLOCKS.has(name);
    if (block) out.push('\n');
    if (name === 'TD' || name === 'TH') out.push(' ');
    for (let c = node.firstChild; c; c = c.nextSibling) walk(c, pre || name === 'PRE');
    if (block) out.push('\n');
  };
  walk(root, false);
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter((line, i, lines) => line !== '' || (i > 0 && lines[i - 1] !== ''))
    .join('\n')
    .trim();
}

function turndown(base: string): TurndownService {
  const td = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    hr: '---',
  });
  td.remove((node) => DROPPED.has(node.nodeName.toUpperCase()));
  // turndown pads list markers to four columns ("-   item"); one space reads better and costs less.
  td.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as Element | null;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? 1) || 1;
        prefix = `${start + Array.prototype.indexOf.call(parent.children, node)}. `;
      }
      const indent = ' '.repeat(prefix.length);
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n(?=.)/g, `\n${indent}`);
      return prefix + body + (node.nextSibling && !body.endsWith('\n') ? '\n' : '');
    },
  });
  td.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && !!node.getAttribute('href'),
    replacement: (content, node) => {
      const href = absolute((node as Element).getAttribute('href'), base);
      const text = content.trim();
      if (!href || href.startsWith('javascript:')) return content;
      return text ? `[${text}](${href})` : '';
    },
  });
  td.addRule('images', {
    filter: 'img',
    replacement: (_content, node) => {
      const el = node as Element;
      const alt = (el.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      const src = absolute(el.getAttribute('src'), base);
      // Inline data: images are bytes, not information, and can be megabytes long.
      if (!src || src.startsWith('data:')) return alt ? `[image: ${alt}]` : '';
      return `![${alt}](${src})`;
    },
  });
  return td;
}

export function htmlToMarkdown(html: string, url: string): ReadableHtml {
  const doc = parse(html, url);
  const documentTitle = doc.querySelector('title')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  const article = new Readability(doc).parse();
  let contentHtml: string;
  let readable = true;
  if (article?.content && (article.textContent ?? '').trim()) contentHtml = article.content;
  else {
    // Not an article (a listing, an app shell, a tiny page): the whole body without its machinery.
    readable = false;
    const fresh = parse(html, url);
    for (const el of [...fresh.querySelectorAll(JUNK)]) el.remove();
    contentHtml = fresh.body?.innerHTML ?? '';
  }
  const holder = parse(`<!doctype html><html><body><div id="sextant-readable">${contentHtml}</div></body></html>`, url);
  const root = holder.getElementById('sextant-readable') ?? holder.body;
  const markdown = turndown(doc.baseURI ?? url)
    .turndown(root as unknown as TurndownService.Node)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const title = (article?.title ?? '').replace(/\s+/g, ' ').trim() || documentTitle || url;
  return { title, markdown, text: plainText(root), readable };
}
