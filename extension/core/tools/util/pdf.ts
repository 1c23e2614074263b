// PDF → plain text per page, written here instead of bundling pdf.js (several MB, ESM + worker
// set-up) for what read_file needs: the words in reading order. Handles compressed streams, object
// streams, ToUnicode CMaps (Identity-H CID fonts from Chrome, Word, LaTeX), simple encodings with
// /Differences, inherited resources and form XObjects. Scanned (image-only) pages yield no text.
import { Lexer, PdfBytes, PdfDocument, PdfRef, nameOf, type PdfDict, type PdfValue } from './pdf-objects';
import { type FontInfo, decodeShown, loadFont } from './pdf-fonts';

interface Ctx {
  doc: PdfDocument;
  out: string[];
  depth: number;
  fonts: Map<string, FontInfo>;
}

function runContent(c: Ctx, data: string, resources: PdfDict | undefined): void {
  const fontDict = c.doc.dict(resources?.get('Font'));
  const xobjects = c.doc.dict(resources?.get('XObject'));
  let font: FontInfo = { codeBytes: 1, map: new Map(), simple: (x) => String.fromCharCode(x), width: () => 500 };
  let size = 1;
  let lastY: number | undefined;
  let y = 0;
  let leading = 0;
  // x: where the last shown text ended; lineX: start of the current line (Td is relative to it).
  let x = 0;
  let lineX = 0;
  const show = (bytes: string) => {
    const r = decodeShown(bytes, font);
    x += (r.advance / 1000) * size;
    return r.text;
  };
  const jumpX = (nx: number, sameLine: boolean) => {
    const last = c.out[c.out.length - 1];
    if (sameLine && nx - x > size * 0.2 && last !== undefined && !/\s$/.test(last)) c.out.push(' ');
    x = nx;
    lineX = nx;
  };
  const lx = new Lexer(data);
  const ops: PdfValue[] = [];
  const newline = () => {
    const last = c.out[c.out.length - 1];
    if (last !== undefined && last !== '\n') c.out.push('\n');
  };
  const moveTo = (ny: number) => {
    if (lastY !== undefined && Math.abs(ny - lastY) > 0.5) newline();
    lastY = ny;
    y = ny;
  };
  for (;;) {
    const t = lx.next();
    if (t === undefined) break;
    if (!(t !== null && typeof t === 'object' && 'op' in t)) {
      ops.push(t);
      continue;
    }
    const op = t.op;
    const num = (i: number) => Number(ops[ops.length - i]) || 0;
    switch (op) {
      case 'BI': {
        // Inline image: skip its binary data up to EI.
        const ei = data.indexOf('EI', lx.pos);
        lx.pos = ei === -1 ? data.length : ei + 2;
        break;
      }
      case 'Tf': {
        const name = nameOf(ops[ops.length - 2]);
        if (name) {
          size = Math.abs(num(1)) || 1;
          const key = `${name}`;
          const ref = fontDict?.get(name);
          const cacheKey = ref instanceof PdfRef ? `r${ref.num}` : key;
          if (!c.fonts.has(cacheKey)) c.fonts.set(cacheKey, loadFont(c.doc, ref));
          font = c.fonts.get(cacheKey) ?? font;
        }
        break;
      }
      case 'TL':
        leading = num(1);
        break;
      case 'Td':
      case 'TD':
        if (op === 'TD') leading = -num(1);
        jumpX(lineX + num(2), num(1) === 0);
        moveTo(y + num(1));
        break;
      case 'Tm':
        jumpX(num(2), lastY !== undefined && Math.abs(num(1) - lastY) <= 0.5);
        moveTo(num(1));
        break;
      case 'T*':
        jumpX(lineX, false);
        moveTo(y - leading);
        break;
      case 'BT':
        break;
      case 'Tj':
      case "'":
      case '"': {
        if (op !== 'Tj') {
          jumpX(lineX, false);
          moveTo(y - leading);
        }
        const s = ops[ops.length - 1];
        if (s instanceof PdfBytes) c.out.push(show(s.bytes));
        break;
      }
      case 'TJ': {
        const arr = ops[ops.length - 1];
        if (Array.isArray(arr)) {
          let s = '';
          for (const part of arr) {
            if (part instanceof PdfBytes) s += show(part.bytes);
            else if (typeof part === 'number') {
              x -= (part / 1000) * size;
              if (part < -150 && s !== '' && !s.endsWith(' ')) s += ' ';
            }
          }
          c.out.push(s);
        }
        break;
      }
      case 'Do': {
        const name = nameOf(ops[ops.length - 1]);
        const ref = name ? xobjects?.get(name) : undefined;
        const xo = ref instanceof PdfRef ? c.doc.objects.get(ref.num) : undefined;
        if (xo && xo.value instanceof Map && nameOf(xo.value.get('Subtype')) === 'Form' && c.depth < 8) {
          c.depth++;
          try {
            runContent(c, c.doc.streamData(xo), c.doc.dict(xo.value.get('Resources')) ?? resources);
          } finally {
            c.depth--;
          }
        }
        break;
      }
      default:
        break;
    }
    ops.length = 0;
  }
  newline();
}

function collectPages(doc: PdfDocument): Array<{ page: PdfDict; resources?: PdfDict }> {
  const pages: Array<{ page: PdfDict; resources?: PdfDict }> = [];
  const seen = new Set<PdfDict>();
  const walk = (node: PdfDict | undefined, inherited: PdfDict | undefined, depth: number) => {
    if (!node || seen.has(node) || depth > 64) return;
    seen.add(node);
    const res = doc.dict(node.get('Resources')) ?? inherited;
    const kids = doc.resolve(node.get('Kids'));
    if (nameOf(node.get('Type')) === 'Page' || (!Array.isArray(kids) && node.has('Contents'))) {
      pages.push({ page: node, resources: res });
      return;
    }
    if (Array.isArray(kids)) for (const k of kids) walk(doc.dict(k), res, depth + 1);
  };
  const catalog = [...doc.objects.values()]
    .map((o) => o.value)
    .find((v): v is PdfDict => v instanceof Map && nameOf(v.get('Type')) === 'Catalog');
  walk(doc.dict(catalog?.get('Pages')), undefined, 0);
  if (pages.length === 0) {
    for (const o of doc.objects.values()) {
      if (o.value instanceof Map && nameOf(o.value.get('Type')) === 'Page')
        pages.push({ page: o.value, resources: doc.dict(o.value.get('Resources')) });
    }
  }
  return pages;
}

/** Text of every page, in page order. Throws when the bytes are not a readable PDF. */
export function extractPdfPages(bytes: Uint8Array): string[] {
  const src = Buffer.from(bytes).toString('latin1');
  if (!src.startsWith('%PDF-')) throw new Error('the file does not start with %PDF-');
  if (/\/Encrypt\s/.test(src)) throw new Error('the PDF is encrypted');
  const doc = new PdfDocument(src);
  const pages = collectPages(doc);
  if (pages.length === 0) throw new Error('no pages found (the file may be damaged)');
  const fonts = new Map<string, FontInfo>();
  return pages.map(({ page, resources }) => {
    const contents = doc.resolve(page.get('Contents'));
    const refs: PdfValue[] = Array.isArray(contents) ? contents : [page.get('Contents') ?? null];
    let data = '';
    for (const r of refs) {
      try {
        data += `${doc.streamData(r instanceof PdfRef ? r : undefined)}\n`;
      } catch {
        /* an undecodable stream: skip it, keep the rest of the page */
      }
    }
    const c: Ctx = { doc, out: [], depth: 0, fonts };
    runContent(c, data, resources);
    return c.out
      .join('')
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  });
}

/** "1-3,7" → [1,2,3,7] within 1..max. */
export function parsePageSpec(spec: string, max: number): number[] {
  const out: number[] = [];
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:\s*-\s*(\d+)?)?$/.exec(part);
    if (!m) throw new Error(`pages "${spec}" is not understood; use numbers and ranges like "1-3,7".`);
    const a = Number(m[1]);
    const b = m[2] ? Number(m[2]) : part.includes('-') ? max : a;
    if (a < 1 || a > max) throw new Error(`page ${a} does not exist; the PDF has ${max} pages.`);
    for (let p = a; p <= Math.min(b, max); p++) if (!out.includes(p)) out.push(p);
  }
  if (out.length === 0) throw new Error(`pages "${spec}" selects no page.`);
  return out;
}
