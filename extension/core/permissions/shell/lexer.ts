// The word half of the shell parser: quotes, escapes, `$…` expansions, backticks, arithmetic and
// $'…' strings — everything inside one word. The command half (parse.ts) extends it with lists,
// commands, keywords, redirections and here-documents.
import type { ShellParse, ShellWord } from './syntax';

export const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const SIMPLE_PARAM = /^(#?[A-Za-z_][A-Za-z0-9_]*|#?[0-9]+|[@*#?$!-])$/;
/** Arithmetic on literal numbers only: a name in there is evaluated, array subscripts and all. */
const LITERAL_ARITHMETIC = /^[\s0-9+\-*/%()<>=!&|^~?:,]*$/;

export abstract class WordReader {
  i = 0;

  constructor(
    protected readonly src: string,
    protected readonly out: ShellParse,
    protected nesting: number,
    protected subshell: number,
  ) {}

  /** Parses a nested command list up to its `)` (a substitution's commands). */
  protected abstract nested(origin: string): void;

  /** A parser for text nested one level deeper (a backtick body, a here-document). */
  protected abstract child(src: string): WordReader & { parseList(closed: boolean, origin: string): void };

  problem(message: string): void {
    if (!this.out.problems.includes(message)) this.out.problems.push(message);
  }

  protected at(s: string): boolean {
    return this.src.startsWith(s, this.i);
  }

  readWord(): ShellWord | undefined {
    const s = this.src;
    const start = this.i;
    if ((this.at('<(') || this.at('>(')) && !this.inWord(start)) {
      const kind = s[this.i] as '<' | '>';
      this.i += 2;
      this.nested(kind === '<' ? '<( )' : '>( )');
      const value = s.slice(start, this.i);
      return { value, dynamic: true, pattern: false, tilde: false, quoted: false, procSub: kind, plain: 0 };
    }
    let value = '';
    let dynamic = false;
    let pattern = false;
    let quoted = false;
    let bracket = false;
    let brace = false;
    let braceList = false;
    let plain = -1;
    const tilde = s[this.i] === '~';
    while (this.i < s.length) {
      const c = s[this.i];
      if (WORD_END.has(c)) break;
      if (plain < 0 && (c === '\\' || c === "'" || c === '"' || c === '$' || c === '`')) plain = value.length;
      if (c === '\\') {
        const next = s[this.i + 1];
        this.i += 2;
        if (next === '\n') continue;
        if (next === undefined) {
          value += '\\';
          break;
        }
        value += next;
        quoted = true;
      } else if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        quoted = true;
        if (end < 0) {
          this.problem('a single quote is never closed');
          value += s.slice(this.i + 1);
          this.i = s.length;
          break;
        }
        value += s.slice(this.i + 1, end);
        this.i = end + 1;
      } else if (c === '"') {
        this.i++;
        quoted = true;
        const r = this.readDouble(true);
        value += r.value;
        dynamic ||= r.dynamic;
      } else if (c === '$') {
        const r = this.readDollar(false);
        value += r.value;
        dynamic ||= r.dynamic;
        quoted ||= r.quoted;
      } else if (c === '`') {
        value += this.readBackticks();
        dynamic = true;
      } else {
        if (c === '*' || c === '?') pattern = true;
        else if (c === '[') bracket = true;
        else if (c === ']' && bracket) pattern = true;
        else if (c === '{') brace = true;
        else if (brace && (c === ',' || (c === '.' && s[this.i + 1] === '.'))) braceList = true;
        else if (c === '}' && braceList) pattern = true;
        value += c;
        this.i++;
      }
    }
    if (this.i === start) return undefined;
    return { value, dynamic, pattern, tilde, quoted, plain: plain < 0 ? value.length : plain };
  }

  /** Whether position `at` continues a word (so `<(` there is a redirection, not a substitution). */
  protected inWord(at: number): boolean {
    const prev = this.src[at - 1];
    return prev !== undefined && !WORD_END.has(prev);
  }

  /**
   * Inside double quotes (after the opening "), or a here-document body when `closed` is false:
   * only \ $ and ` are special. Returns the text and whether it holds an expansion.
   */
  readDouble(closed: boolean): { value: string; dynamic: boolean } {
    const s = this.src;
    let value = '';
    let dynamic = false;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '"' && closed) {
        this.i++;
        return { value, dynamic };
      }
      if (c === '\\') {
        const next = s[this.i + 1];
        if (next === '\n') this.i += 2;
        else if (next === '$' || next === '`' || next === '\\' || (next === '"' && closed)) {
          value += next;
          this.i += 2;
        } else {
          value += c;
          this.i++;
        }
      } else if (c === '$') {
        const r = this.readDollar(true);
        value += r.value;
        dynamic ||= r.dynamic;
      } else if (c === '`') {
        value += this.readBackticks();
        dynamic = true;
      } else {
        value += c;
        this.i++;
      }
    }
    if (closed) this.problem('a double quote is never closed');
    return { value, dynamic };
  }

  /** At a `$`: a substitution, a parameter, an ANSI-C string, or a plain dollar sign. */
  protected readDollar(inDouble: boolean): { value: string; dynamic: boolean; quoted: boolean } {
    const s = this.src;
    const start = this.i;
    const next = s[this.i + 1];
    if (next === '(') {
      if (s[this.i + 2] === '(') {
        this.skipArithmetic(this.i + 3);
        return { value: s.slice(start, this.i), dynamic: true, quoted: false };
      }
      this.i += 2;
      this.nested('$( )');
      return { value: s.slice(start, this.i), dynamic: true, quoted: false };
    }
    if (next === '{') {
      const end = this.matchingBrace(this.i + 2);
      if (end < 0) {
        this.problem('a ${ is never closed');
        this.i = s.length;
        return { value: s.slice(start), dynamic: true, quoted: false };
      }
      const inner = s.slice(this.i + 2, end);
      if (!SIMPLE_PARAM.test(inner)) {
        this.problem(`the parameter expansion \${${inner}} has operators the policy does not judge`);
        // A substitution inside still runs: read it so a deny rule can see it.
        if (/[$`]/.test(inner)) this.child(inner).readDouble(false);
      }
      this.i = end + 1;
      return { value: s.slice(start, this.i), dynamic: true, quoted: false };
    }
    if (next === '[') {
      this.problem('the old arithmetic form $[ … ] is not judged');
      this.i += 2;
      return { value: s.slice(start, this.i), dynamic: true, quoted: false };
    }
    if (next === "'" && !inDouble) return this.readAnsiC();
    if (next === '"' && !inDouble) {
      this.i += 2;
      const r = this.readDouble(true);
      return { value: r.value, dynamic: r.dynamic, quoted: true };
    }
    if (next !== undefined && /[A-Za-z_]/.test(next)) {
      let j = this.i + 2;
      while (j < s.length && /[A-Za-z0-9_]/.test(s[j])) j++;
      this.i = j;
      return { value: s.slice(start, j), dynamic: true, quoted: false };
    }
    if (next !== undefined && /[0-9@*#?$!-]/.test(next)) {
      this.i += 2;
      return { value: s.slice(start, this.i), dynamic: true, quoted: false };
    }
    this.i++;
    return { value: '$', dynamic: false, quoted: false };
  }

  /** The index of the `}` closing a `${`, skipping quoted text and nested braces; -1 if none. */
  protected matchingBrace(from: number): number {
    const s = this.src;
    let depth = 1;
    for (let j = from; j < s.length; j++) {
      const c = s[j];
      if (c === '\\') j++;
      else if (c === "'") {
        const end = s.indexOf("'", j + 1);
        if (end < 0) return -1;
        j = end;
      } else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) return j;
    }
    return -1;
  }

  /** Skips `$(( … ))` or `(( … ))` from just inside the parentheses; substitutions inside are a problem. */
  protected skipArithmetic(from: number): void {
    const s = this.src;
    let depth = 2;
    let j = from;
    for (; j < s.length && depth > 0; j++) {
      if (s[j] === '(') depth++;
      else if (s[j] === ')') depth--;
    }
    const inner = s.slice(from, Math.max(from, j - 2));
    if (depth > 0) this.problem('an arithmetic expansion $(( is never closed');
    if (/\$\(|`|\$\{/.test(inner)) this.problem('substitutions inside arithmetic $(( … )) are not supported');
    else if (!LITERAL_ARITHMETIC.test(inner))
      this.problem(
        'arithmetic on variables is not judged: bash evaluates a value such as a[$(cmd)] there, running the command',
      );
    this.i = j;
  }

  /** Skips a parenthesized group (an array value) without judging it. */
  protected skipParens(): void {
    const s = this.src;
    let depth = 0;
    for (; this.i < s.length; this.i++) {
      if (s[this.i] === '(') depth++;
      else if (s[this.i] === ')' && --depth === 0) {
        this.i++;
        return;
      }
    }
  }

  /** `…` : the text up to the closing backtick (with \` \\ \$ unescaped), parsed as commands. */
  protected readBackticks(): string {
    const s = this.src;
    const start = this.i;
    let body = '';
    let j = this.i + 1;
    for (; j < s.length && s[j] !== '`'; j++) {
      if (s[j] === '\\' && (s[j + 1] === '`' || s[j + 1] === '\\' || s[j + 1] === '$')) body += s[++j];
      else body += s[j];
    }
    if (j >= s.length) this.problem('a backtick is never closed');
    this.i = Math.min(j + 1, s.length);
    const sub = this.child(body);
    sub.parseList(false, '` `');
    return s.slice(start, this.i);
  }

  /** $'…' with its escapes decoded, so `$'\x72m'` is judged as `rm`. */
  protected readAnsiC(): { value: string; dynamic: boolean; quoted: boolean } {
    const s = this.src;
    let j = this.i + 2;
    let value = '';
    const simple: Record<string, string> = {
      a: '\x07',
      b: '\b',
      e: '\x1b',
      E: '\x1b',
      f: '\f',
      n: '\n',
      r: '\r',
      t: '\t',
      v: '\v',
      '\\': '\\',
      "'": "'",
      '"': '"',
      '?': '?',
    };
    while (j < s.length && s[j] !== "'") {
      if (s[j] !== '\\') {
        value += s[j++];
        continue;
      }
      const e = s[j + 1];
      if (e === undefined) break;
      if (e in simple) {
        value += simple[e];
        j += 2;
        continue;
      }
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hex) {
        const m = new RegExp(`^[0-9A-Fa-f]{1,${hex}}`).exec(s.slice(j + 2, j + 2 + hex));
        const code = m ? Number.parseInt(m[0], 16) : 0;
        if (m && code > 0x10ffff) this.problem(`the escape \\${e}${m[0]} names no character`);
        if (m) {
          value += code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code);
          j += 2 + m[0].length;
          continue;
        }
      }
      const oct = /^[0-7]{1,3}/.exec(s.slice(j + 1, j + 4));
      if (oct) {
        value += String.fromCharCode(Number.parseInt(oct[0], 8) & 0xff);
        j += 1 + oct[0].length;
        continue;
      }
      if (e === 'c') this.problem("the \\c escape in $'…' is not supported");
      value += `\\${e}`;
      j += 2;
    }
    if (j >= s.length) this.problem("a $' quote is never closed");
    this.i = Math.min(j + 1, s.length);
    return { value, dynamic: false, quoted: true };
  }
}
