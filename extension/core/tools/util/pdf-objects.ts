// A minimal PDF object reader for text extraction: finds `n g obj … endobj` bodies by scanning
// (robust to broken xref tables), parses PDF values, expands object streams and decodes the
// common stream filters. Enough for text, not a renderer. Works on a latin1 string (1 char = 1 byte).
import { inflateSync, constants as zc } from 'node:zlib';

export type PdfValue = number | boolean | null | string | PdfName | PdfRef | PdfValue[] | PdfDict | PdfBytes;
export class PdfName {
  constructor(readonly name: string) {}
}
export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
/** A literal or hex string, as raw bytes (latin1 string). */
export class PdfBytes {
  constructor(readonly bytes: string) {}
}
export type PdfDict = Map<string, PdfValue>;

export interface PdfObject {
  value: PdfValue;
  stream?: string;
}

const WS = /[\0\t\n\f\r ]/;
const DELIM = /[()<>[\]{}/%]/;

export class Lexer {
  pos = 0;
  constructor(readonly s: string) {}
  skipWs(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s[this.pos];
      if (WS.test(c)) this.pos++;
      else if (c === '%') while (this.pos < s.length && s[this.pos] !== '\n' && s[this.pos] !== '\r') this.pos++;
      else break;
    }
  }
  /** Reads one value or operator; operators come back as { op }. */
  next(): PdfValue | { op: string } | undefined {
    this.skipWs();
    const s = this.s;
    if (this.pos >= s.length) return undefined;
    const c = s[this.pos];
    if (c === '/') {
      let j = this.pos + 1;
      while (j < s.length && !WS.test(s[j]) && !DELIM.test(s[j])) j++;
      const raw = s
        .slice(this.pos + 1, j)
        .replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      this.pos = j;
      return new PdfName(raw);
    }
    if (c === '(') return this.literal();
    if (c === '<') {
      if (s[this.pos + 1] === '<') {
        this.pos += 2;
        return this.dict();
      }
      const end = s.indexOf('>', this.pos);
      const hex = s.slice(this.pos + 1, end === -1 ? s.length : end).replace(/[^0-9a-fA-F]/g, '');
      this.pos = end === -1 ? s.length : end + 1;
      let out = '';
      for (let i = 0; i < hex.length; i += 2)
        out += String.fromCharCode(parseInt(`${hex.slice(i, i + 2)}0`.slice(0, 2), 16));
      return new PdfBytes(out);
    }
    if (c === '[') {
      this.pos++;
      const arr: PdfValue[] = [];
      for (;;) {
        this.skipWs();
        if (this.pos >= s.length) return arr;
        if (s[this.pos] === ']') {
          this.pos++;
          return arr;
        }
        const v = this.value();
        if (v === undefined) return arr;
        arr.push(v);
      }
    }
    if (c === ']' || c === '>' || c === ')' || c === '{' || c === '}') {
      this.pos++;
      return { op: c };
    }
    let j = this.pos;
    while (j < s.length && !WS.test(s[j]) && !DELIM.test(s[j])) j++;
    if (j === this.pos) j++;
    const tok = s.slice(this.pos, j);
    this.pos = j;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(tok)) return Number(tok);
    if (tok === 'true') return true;
    if (tok === 'false') return false;
    if (tok === 'null') return null;
    return { op: tok };
  }
  /** A value, folding `n g R` into a reference. */
  value(): PdfValue | undefined {
    const v = this.next();
    if (v === undefined) return undefined;
    if (typeof v === 'number' && Number.isInteger(v)) {
      const save = this.pos;
      const g = this.next();
      if (typeof g === 'number') {
        const r = this.next();
        if (r && typeof r === 'object' && 'op' in r && r.op === 'R') return new PdfRef(v, g);
      }
      this.pos = save;
      return v;
    }
    if (v !== null && typeof v === 'object' && 'op' in v) return null;
    return v;
  }
  private dict(): PdfDict {
    const d: PdfDict = new Map();
    for (;;) {
      this.skipWs();
      if (this.pos >= this.s.length) return d;
      if (this.s.startsWith('>>', this.pos)) {
        this.pos += 2;
        return d;
      }
      const k = this.next();
      if (!(k instanceof PdfName)) continue;
      const v = this.value();
      if (v === undefined) return d;
      d.set(k.name, v);
    }
  }
  private literal(): PdfBytes {
    const s = this.s;
    let depth = 0;
    let out = '';
    let i = this.pos;
    for (; i < s.length; i++) {
      const c = s[i];
      if (c === '\\') {
        const n = s[++i];
        const map: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
        if (n in map) out += map[n];
        else if (n >= '0' && n <= '7') {
          let oct = n;
          while (oct.length < 3 && s[i + 1] >= '0' && s[i + 1] <= '7') oct += s[++i];
          out += String.fromCharCode(parseInt(oct, 8) & 0xff);
        } else if (n === '\r') {
          if (s[i + 1] === '\n') i++;
        } else if (n !== '\n') out += n;
      } else if (c === '(') {
        if (depth++ > 0) out += c;
      } else if (c === ')') {
        if (--depth === 0) break;
        out += c;
      } else out += c;
    }
    this.pos = i + 1;
    return new PdfBytes(out);
  }
}

function decodeFilter(name: string, data: string): string {
  const buf = Buffer.from(data, 'latin1');
  switch (name) {
    case 'FlateDecode':
    case 'Fl':
      try {
        return inflateSync(buf).toString('latin1');
      } catch {
        // Truncated or slightly corrupt streams: keep what decodes.
        return inflateSync(buf, { finishFlush: zc.Z_SYNC_FLUSH }).toString('latin1');
      }
    case 'ASCIIHexDecode':
    case 'AHx': {
      const hex = data.replace(/[^0-9a-fA-F]/g, '');
      return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1');
    }
    case 'ASCII85Decode':
    case 'A85':
      return ascii85(data);
    default:
      throw new Error(`unsupported stream filter ${name}`);
  }
}

function ascii85(data: string): string {
  const s = data.replace(/\s+/g, '').replace(/^<~/, '').replace(/~>.*$/, '');
  const out: number[] = [];
  let group: number[] = [];
  for (const ch of s) {
    if (ch === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    group.push(ch.charCodeAt(0) - 33);
    if (group.length === 5) {
      let v = 0;
      for (const g of group) v = v * 85 + g;
      out.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
      group = [];
    }
  }
  if (group.length > 1) {
    const n = group.length;
    while (group.length < 5) group.push(84);
    let v = 0;
    for (const g of group) v = v * 85 + g;
    const bytes = [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
    out.push(...bytes.slice(0, n - 1));
  }
  return Buffer.from(out).toString('latin1');
}

export class PdfDocument {
  readonly objects = new Map<number, PdfObject>();

  constructor(readonly src: string) {
    const re = /(\d+)\s+(\d+)\s+obj\b/g;
    // An explicit exec loop, not matchAll: a stream's end moves re.lastIndex past its binary content.
    for (let m = re.exec(src); m; m = re.exec(src)) {
      const lx = new Lexer(src);
      lx.pos = m.index + m[0].length;
      const value = lx.value();
      if (value === undefined) continue;
      lx.skipWs();
      let stream: string | undefined;
      if (src.startsWith('stream', lx.pos)) {
        let start = lx.pos + 6;
        if (src[start] === '\r') start++;
        if (src[start] === '\n') start++;
        const len = value instanceof Map ? value.get('Length') : undefined;
        let end =
          typeof len === 'number' && src.startsWith('endstream', skipEol(src, start + len))
            ? start + len
            : src.indexOf('endstream', start);
        if (end === -1) end = src.length;
        stream = src.slice(start, end);
        re.lastIndex = end;
      }
      // Later definitions (incremental updates) replace earlier ones.
      this.objects.set(Number(m[1]), { value, stream });
    }
    this.expandObjectStreams();
  }

  private expandObjectStreams(): void {
    for (const obj of [...this.objects.values()]) {
      const d = obj.value;
      if (!(d instanceof Map) || nameOf(d.get('Type')) !== 'ObjStm' || obj.stream === undefined) continue;
      let data: string;
      try {
        data = this.streamData(obj);
      } catch {
        continue;
      }
      const n = Number(d.get('N'));
      const first = Number(d.get('First'));
      const lx = new Lexer(data);
      const pairs: Array<[number, number]> = [];
      for (let i = 0; i < n; i++) pairs.push([Number(lx.next()), Number(lx.next())]);
      for (const [num, off] of pairs) {
        if (this.objects.has(num)) continue;
        const vl = new Lexer(data);
        vl.pos = first + off;
        const value = vl.value();
        if (value !== undefined) this.objects.set(num, { value });
      }
    }
  }

  resolve(v: PdfValue | undefined): PdfValue | undefined {
    let cur = v;
    for (let i = 0; i < 32 && cur instanceof PdfRef; i++) cur = this.objects.get(cur.num)?.value;
    return cur;
  }

  dict(v: PdfValue | undefined): PdfDict | undefined {
    const r = this.resolve(v);
    return r instanceof Map ? r : undefined;
  }

  /** The decoded bytes of a stream object (by reference or object). */
  streamData(o: PdfObject | PdfValue | undefined): string {
    const obj =
      o instanceof PdfRef
        ? this.objects.get(o.num)
        : o && typeof o === 'object' && 'value' in o
          ? (o as PdfObject)
          : undefined;
    if (!obj || obj.stream === undefined) return '';
    const d = obj.value instanceof Map ? obj.value : new Map<string, PdfValue>();
    const f = this.resolve(d.get('Filter'));
    const filters = Array.isArray(f) ? f.map((x) => nameOf(this.resolve(x))) : f ? [nameOf(f)] : [];
    let data = obj.stream;
    for (const name of filters) if (name) data = decodeFilter(name, data);
    return data;
  }
}

function skipEol(s: string, i: number): number {
  while (s[i] === '\r' || s[i] === '\n' || s[i] === ' ') i++;
  return i;
}

export function nameOf(v: PdfValue | undefined): string | undefined {
  return v instanceof PdfName ? v.name : undefined;
}
