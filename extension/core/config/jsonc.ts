// A small JSON-with-comments reader for Sextant's own settings files. Unlike JSON.parse it says
// where a problem is (offset → line and column) and remembers where every value starts, so a value
// of the wrong shape can be reported at its own line. Accepts // and /* */ comments and trailing
// commas, as VS Code's settings files do.

export type JsonPath = ReadonlyArray<string | number>;

export type JsoncResult =
  | { ok: true; value: unknown; offsetOf(path: JsonPath): number | undefined }
  | { ok: false; message: string; offset: number };

export interface LineColumn {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units. */
  column: number;
}

/** The 1-based line and column of an offset in `text`. */
export function lineColumn(text: string, offset: number): LineColumn {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

class JsoncError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const MAX_DEPTH = 64;

class Reader {
  pos = 0;
  readonly offsets = new Map<string, number>();

  constructor(private readonly text: string) {}

  private fail(message: string, at = this.pos): never {
    throw new JsoncError(message, at);
  }

  skip(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') this.pos++;
      else if (c === '/' && t[this.pos + 1] === '/') {
        const end = t.indexOf('\n', this.pos);
        this.pos = end < 0 ? t.length : end + 1;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const end = t.indexOf('*/', this.pos + 2);
        if (end < 0) this.fail('a /* comment is never closed');
        this.pos = end + 2;
      } else return;
    }
  }

  value(path: JsonPath): unknown {
    this.skip();
    if (path.length > MAX_DEPTH) this.fail('values are nested too deeply');
    const t = this.text;
    const at = this.pos;
    this.offsets.set(JSON.stringify(path), at);
    const c = t[at];
    if (c === undefined) this.fail('the file ends where a value was expected');
    if (c === '{') return this.object(path);
    if (c === '[') return this.array(path);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = at;
      const m = NUMBER.exec(t);
      if (!m) this.fail('a number is malformed');
      this.pos = at + m[0].length;
      return Number(m[0]);
    }
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (t.startsWith(word, at)) {
        this.pos = at + word.length;
        return v;
      }
    }
    this.fail(`unexpected ${describeChar(c)}`);
  }

  private string(): string {
    const t = this.text;
    const start = this.pos;
    let i = start + 1;
    for (;;) {
      const c = t[i];
      if (c === undefined || c === '\n') this.fail('a string is never closed', start);
      if (c === '"') break;
      i += c === '\\' ? 2 : 1;
    }
    this.pos = i + 1;
    try {
      return JSON.parse(t.slice(start, i + 1)) as string;
    } catch {
      return this.fail('a string holds an invalid escape or control character', start);
    }
  }

  private object(path: JsonPath): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    for (;;) {
      this.skip();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return out;
      }
      if (this.text[this.pos] !== '"') this.fail('expected a property name in double quotes or "}"');
      const key = this.string();
      this.skip();
      if (this.text[this.pos] !== ':') this.fail(`expected ":" after "${key}"`);
      this.pos++;
      // defineProperty: a key named "__proto__" is data, not the prototype.
      Object.defineProperty(out, key, {
        value: this.value([...path, key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skip();
      const c = this.text[this.pos];
      if (c === ',') this.pos++;
      else if (c !== '}') this.fail('expected "," or "}" after a property');
    }
  }

  private array(path: JsonPath): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    for (;;) {
      this.skip();
      if (this.text[this.pos] === ']') {
        this.pos++;
        return out;
      }
      out.push(this.value([...path, out.length]));
      this.skip();
      const c = this.text[this.pos];
      if (c === ',') this.pos++;
      else if (c !== ']') this.fail('expected "," or "]" after an array element');
    }
  }
}

function describeChar(c: string): string {
  return /^[\x21-\x7e]$/.test(c) ? `"${c}"` : `character U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Parses JSON with comments and trailing commas; never throws. */
export function parseJsonc(text: string): JsoncResult {
  const r = new Reader(text);
  try {
    const value = r.value([]);
    r.skip();
    if (r.pos < text.length) return { ok: false, message: 'unexpected text after the end of the value', offset: r.pos };
    return { ok: true, value, offsetOf: (path) => r.offsets.get(JSON.stringify(path)) };
  } catch (err) {
    if (err instanceof JsoncError) return { ok: false, message: err.message, offset: err.offset };
    throw err;
  }
}

/** A zod issue's path as written in the file: `permissions.deny[2]`. */
export function pathText(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${String(p)}` : String(p))).join('');
}

/** The deepest prefix of `path` whose position is known (a missing key has none of its own). */
export function offsetNear(offsetOf: (p: JsonPath) => number | undefined, path: ReadonlyArray<PropertyKey>): number {
  const keys = path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
  for (let n = keys.length; n >= 0; n--) {
    const at = offsetOf(keys.slice(0, n));
    if (at !== undefined) return at;
  }
  return 0;
}
