// Raw HTML in model output is shown as text. A model that explains HTML or CSS writes `<style>`,
// `<!--` or `<title>` in prose; rendered as markup, an unclosed one would swallow the rest of the
// answer. Only a short list of attribute-free formatting tags becomes markup, and only when the
// tag is well formed and closed in the same block (so an opened tag can never run to the end of
// the answer). `details` may span blocks (its content is usually Markdown paragraphs); it still
// needs its closing tag.
import type { Token, Tokens } from 'marked';

/** Tags that render as markup when written without attributes and properly closed. */
export const ALLOWED_RAW_TAGS: readonly string[] = [
  'b',
  'br',
  'del',
  'details',
  'em',
  'hr',
  'i',
  'ins',
  'kbd',
  'mark',
  's',
  'small',
  'strong',
  'sub',
  'summary',
  'sup',
  'u',
  'wbr',
];

const ALLOWED = new Set(ALLOWED_RAW_TAGS);
const VOID = new Set(['br', 'hr', 'wbr']);
/** Tags matched across blocks rather than inside one paragraph. */
const SPANS_BLOCKS = new Set(['details']);
/** `<name>`, `</name>`, `<name/>`: no attributes, nothing else. */
const BARE_TAG = /^<(\/?)([a-z]+)\s*(\/?)>$/i;

type RawToken = Tokens.HTML | Tokens.Tag;

interface OpenTag {
  token: RawToken;
  name: string;
}

/**
 * Decides which raw-HTML tokens of a parsed document render as markup: the returned set holds
 * them, each to be rendered as its canonical tag (see `canonicalTag`); every other raw-HTML token
 * is to be escaped and shown as written.
 */
export function selectRenderableRawHtml(tokens: Token[]): WeakSet<RawToken> {
  const renderable = new WeakSet<RawToken>();
  const acrossBlocks: OpenTag[] = [];
  const visit = (list: Token[]): void => {
    const inThisBlock: OpenTag[] = [];
    for (const token of list) {
      if (token.type === 'html') {
        const raw = token as RawToken;
        const tag = parseBareTag(raw.text);
        if (!tag) continue;
        if (VOID.has(tag.name)) {
          if (!tag.closing) renderable.add(raw);
          continue;
        }
        const stack = SPANS_BLOCKS.has(tag.name) ? acrossBlocks : inThisBlock;
        if (!tag.closing) {
          stack.push({ token: raw, name: tag.name });
        } else if (stack.at(-1)?.name === tag.name) {
          const open = stack.pop() as OpenTag;
          renderable.add(open.token);
          renderable.add(raw);
        }
        continue;
      }
      for (const children of childTokenLists(token)) visit(children);
    }
  };
  visit(tokens);
  return renderable;
}

/** The tag as we write it: lower case, no slash on void tags. */
export function canonicalTag(text: string): string {
  const tag = parseBareTag(text);
  if (!tag) throw new Error('not an allowed tag');
  return tag.closing ? `</${tag.name}>` : `<${tag.name}>`;
}

function parseBareTag(text: string): { name: string; closing: boolean } | undefined {
  const m = BARE_TAG.exec(text.trim());
  if (!m) return undefined;
  const name = m[2].toLowerCase();
  if (!ALLOWED.has(name)) return undefined;
  const closing = m[1] === '/';
  // `</br/>` and `<b/>` are not tags anyone means; show them as text.
  if (m[3] === '/' && (closing || !VOID.has(name))) return undefined;
  return { name, closing };
}

/** The token lists nested in a token: inline content, list items, table cells. */
function childTokenLists(token: Token): Token[][] {
  const lists: Token[][] = [];
  if ('tokens' in token && Array.isArray(token.tokens)) lists.push(token.tokens);
  if (token.type === 'list') for (const item of (token as Tokens.List).items) lists.push(item.tokens);
  if (token.type === 'table') {
    const table = token as Tokens.Table;
    for (const cell of table.header) lists.push(cell.tokens);
    for (const row of table.rows) for (const cell of row) lists.push(cell.tokens);
  }
  return lists;
}
