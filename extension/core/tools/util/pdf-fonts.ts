// A PDF font as text extraction needs it: how many bytes a character code takes, what text each
// code stands for (ToUnicode CMap, simple encodings with /Differences, glyph names) and its advance,
// so the page reader can tell a word gap from a kerning nudge.
import { Lexer, PdfBytes, PdfName, PdfRef, nameOf, type PdfDict, type PdfDocument, type PdfValue } from './pdf-objects';

export interface FontInfo {
  /** Bytes per character code (2 for Identity-H CID fonts). */
  codeBytes: number;
  map: Map<number, string>;
  /** Fallback for codes without a ToUnicode entry. */
  simple?: (code: number) => string;
  /** Glyph advance in 1/1000 em, to tell a word gap from a kerning nudge. */
  width: (code: number) => number;
}

function simpleWidths(doc: PdfDocument, font: PdfDict): (code: number) => number {
  const first = Number(doc.resolve(font.get('FirstChar'))) || 0;
  const w = doc.resolve(font.get('Widths'));
  const arr = Array.isArray(w) ? w.map((x) => Number(doc.resolve(x)) || 0) : [];
  return (c) => arr[c - first] ?? 500;
}

function cidWidths(doc: PdfDocument, font: PdfDict): (code: number) => number {
  const descendants = doc.resolve(font.get('DescendantFonts'));
  const cid = Array.isArray(descendants) ? doc.dict(descendants[0]) : undefined;
  const dw = Number(doc.resolve(cid?.get('DW'))) || 1000;
  const map = new Map<number, number>();
  const w = doc.resolve(cid?.get('W'));
  if (Array.isArray(w)) {
    for (let i = 0; i < w.length; ) {
      const a = Number(doc.resolve(w[i]));
      const next = doc.resolve(w[i + 1]);
      if (Array.isArray(next)) {
        for (const [k, x] of next.entries()) map.set(a + k, Number(doc.resolve(x)) || 0);
        i += 2;
      } else {
        const b = Number(next);
        const width = Number(doc.resolve(w[i + 2])) || 0;
        for (let c = a; c <= b && c - a < 65536; c++) map.set(c, width);
        i += 3;
      }
    }
  }
  return (c) => map.get(c) ?? dw;
}

const GLYPHS: Record<string, string> = {
  space: ' ',
  exclam: '!',
  quotedbl: '"',
  numbersign: '#',
  dollar: '$',
  percent: '%',
  ampersand: '&',
  quotesingle: "'",
  parenleft: '(',
  parenright: ')',
  asterisk: '*',
  plus: '+',
  comma: ',',
  hyphen: '-',
  period: '.',
  slash: '/',
  colon: ':',
  semicolon: ';',
  less: '<',
  equal: '=',
  greater: '>',
  question: '?',
  at: '@',
  bracketleft: '[',
  backslash: '\\',
  bracketright: ']',
  underscore: '_',
  quoteleft: '‘',
  quoteright: '’',
  quotedblleft: '“',
  quotedblright: '”',
  endash: '–',
  emdash: '—',
  bullet: '•',
  fi: 'fi',
  fl: 'fl',
  ff: 'ff',
  ffi: 'ffi',
  ffl: 'ffl',
  zero: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  braceleft: '{',
  braceright: '}',
  bar: '|',
  asciitilde: '~',
  grave: '`',
  asciicircum: '^',
  ellipsis: '…',
  minus: '−',
};

function glyphToText(name: string): string {
  if (name.length === 1) return name;
  if (GLYPHS[name]) return GLYPHS[name];
  const uni = /^uni([0-9A-Fa-f]{4})$/.exec(name);
  if (uni) return String.fromCharCode(parseInt(uni[1], 16));
  return '';
}

function utf16be(bytes: string): string {
  let out = '';
  for (let i = 0; i + 1 < bytes.length; i += 2)
    out += String.fromCharCode((bytes.charCodeAt(i) << 8) | bytes.charCodeAt(i + 1));
  return out;
}

function bytesToNum(b: string): number {
  let n = 0;
  for (let i = 0; i < b.length; i++) n = n * 256 + b.charCodeAt(i);
  return n;
}

function parseCMap(data: string): { map: Map<number, string>; codeBytes: number } {
  const map = new Map<number, string>();
  let codeBytes = 1;
  const lx = new Lexer(data);
  const stack: PdfValue[] = [];
  for (;;) {
    const t = lx.next();
    if (t === undefined) break;
    if (t !== null && typeof t === 'object' && 'op' in t) {
      if (t.op === 'endcodespacerange') {
        const lo = stack.find((v) => v instanceof PdfBytes) as PdfBytes | undefined;
        if (lo) codeBytes = lo.bytes.length;
      } else if (t.op === 'endbfchar') {
        for (let i = 0; i + 1 < stack.length; i += 2) {
          const src = stack[i];
          const dst = stack[i + 1];
          if (src instanceof PdfBytes && dst instanceof PdfBytes) map.set(bytesToNum(src.bytes), utf16be(dst.bytes));
        }
      } else if (t.op === 'endbfrange') {
        for (let i = 0; i + 2 < stack.length; i += 3) {
          const lo = stack[i];
          const hi = stack[i + 1];
          const dst = stack[i + 2];
          if (!(lo instanceof PdfBytes) || !(hi instanceof PdfBytes)) continue;
          const a = bytesToNum(lo.bytes);
          const b = Math.min(bytesToNum(hi.bytes), a + 65535);
          if (dst instanceof PdfBytes) {
            const base = utf16be(dst.bytes);
            for (let c = a; c <= b; c++)
              map.set(c, base.slice(0, -1) + String.fromCharCode(base.charCodeAt(base.length - 1) + (c - a)));
          } else if (Array.isArray(dst)) {
            for (const [k, d] of dst.entries()) if (d instanceof PdfBytes) map.set(a + k, utf16be(d.bytes));
          }
        }
      }
      if (t.op !== '[' && t.op !== ']') stack.length = 0;
      continue;
    }
    stack.push(t);
  }
  return { map, codeBytes };
}

export function loadFont(doc: PdfDocument, ref: PdfValue | undefined): FontInfo {
  const font = doc.dict(ref);
  if (!font) return { codeBytes: 1, map: new Map(), simple: (c) => String.fromCharCode(c), width: () => 500 };
  const subtype = nameOf(font.get('Subtype'));
  const info: FontInfo = {
    codeBytes: subtype === 'Type0' ? 2 : 1,
    map: new Map(),
    width: subtype === 'Type0' ? cidWidths(doc, font) : simpleWidths(doc, font),
  };
  const tu = font.get('ToUnicode');
  if (tu instanceof PdfRef) {
    try {
      const cm = parseCMap(doc.streamData(tu));
      info.map = cm.map;
      info.codeBytes = cm.codeBytes;
      if (subtype === 'Type0') info.codeBytes = Math.max(cm.codeBytes, 2);
    } catch {
      /* fall back to the encoding */
    }
  }
  if (subtype !== 'Type0') {
    const enc = doc.resolve(font.get('Encoding'));
    const diffs = new Map<number, string>();
    if (enc instanceof Map) {
      const d = doc.resolve(enc.get('Differences'));
      if (Array.isArray(d)) {
        let code = 0;
        for (const x of d) {
          if (typeof x === 'number') code = x;
          else if (x instanceof PdfName) diffs.set(code++, glyphToText(x.name));
        }
      }
    }
    info.simple = (c) =>
      diffs.get(c) ??
      (c === 0x92
        ? '’'
        : c === 0x93
          ? '“'
          : c === 0x94
            ? '”'
            : c === 0x96
              ? '–'
              : c === 0x97
                ? '—'
                : String.fromCharCode(c));
  }
  return info;
}

/** The text of a shown string and its advance in 1/1000 em. */
export function decodeShown(bytes: string, font: FontInfo): { text: string; advance: number } {
  let text = '';
  let advance = 0;
  const n = font.codeBytes;
  for (let i = 0; i + n - 1 < bytes.length; i += n) {
    const code = bytesToNum(bytes.slice(i, i + n));
    text += font.map.get(code) ?? font.simple?.(code) ?? '';
    advance += font.width(code);
  }
  return { text, advance };
}
