// A small bash parser of our own, made for one job: finding every simple command a command line
// would run, so the permission policy can judge each one. It is not an interpreter and it does not
// guess: whatever it cannot read with confidence is reported as a problem and the policy asks.
//
// Why not a package (checked with `npm view` / `npm pack --dry-run`, 2025):
// - bash-parser 0.5.0 (and the @ericcornelissen fork): no maintained upstream since 2017, 21
//   dependencies including babylon 6 (the pre-@babel parser);
// - mvdan-sh 0.10.1 (GopherJS build of mvdan/sh): one 1.5 MB index.js (~270 KB gzipped) — most of
//   what is left of our 1.2 MB VSIX budget (the VSIX is ~0.9 MB) and a slower activate();
// - sh-syntax 0.7.0 (mvdan/sh as WASM): a 750 KB main.wasm (~280 KB packed) plus Go's wasm_exec,
//   and an asynchronous parse, where the policy must decide synchronously in microseconds;
// - shell-quote 1.12.0 (26 KB, maintained) tokenizes but does not parse substitutions: `$(curl x)`
//   comes back as "$", "(", "curl", "x", ")" and backticks as plain words, so a command hidden in
//   one would go unseen.
// What we need is a few hundred lines: quotes, escapes, substitutions, redirections, heredocs, the
// list and pipeline operators, and a refusal (a problem) for the rest.

export interface ShellWord {
  /** The word after quote removal and escape decoding; expansions stay as written ("$HOME", "$(date)"). */
  value: string;
  /** Holds an expansion only known at run time: $x, ${x}, $(…), `…`, $((…)). */
  dynamic: boolean;
  /** Holds unquoted pathname expansion (* ? […]) or brace expansion ({a,b}, {1..3}). */
  pattern: boolean;
  /** Starts with an unquoted ~ (a home directory). */
  tilde: boolean;
  /** Any part was quoted or escaped (such a word is never a keyword or an assignment). */
  quoted: boolean;
  /** The word is a process substitution, <(…) or >(…). */
  procSub?: '<' | '>';
  /** How many leading characters of `value` were plain, unquoted text (an assignment's name must be). */
  plain: number;
}

export interface ShellRedirect {
  /** The operator without its file descriptor: > >> >| < <> &> &>> >& <& << <<- <<< */
  op: string;
  fd?: number;
  target: ShellWord;
  /** For << and <<-: the here-document's body, and whether its delimiter was quoted (no expansions). */
  heredoc?: { body: string; quoted: boolean };
}

export interface ShellAssignment {
  name: string;
  value: ShellWord;
}

export interface ShellCommand {
  assignments: ShellAssignment[];
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Where the command sits: 'command', '$( )', '` `', '<( )', '>( )', '( )', 'here-document'. */
  origin: string;
  /** Reads the output of the command before it in a pipeline. */
  pipedInput: boolean;
  /** Runs in the shell itself, in sequence — not in a pipeline, subshell or the background (a `cd` here sticks). */
  sequential: boolean;
}

export interface ShellParse {
  /** Every simple command found, nested ones (substitutions, subshells) included, in reading order. */
  commands: ShellCommand[];
  /** What could not be read with confidence, in plain words; empty when the parse is trusted. */
  problems: string[];
}

const MAX_NESTING = 12;
const WORD_END = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const SIMPLE_PARAM = /^(#?[A-Za-z_][A-Za-z0-9_]*|#?[0-9]+|[@*#?$!-])$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
const REDIRECT = /^(\d*)(&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>|<)/;
/** Arithmetic on literal numbers only: a name in there is evaluated, array subscripts and all. */
const LITERAL_ARITHMETIC = /^[\s0-9+\-*/%()<>=!&|^~?:,]*$/;
/** Characters bash reads differently from how they look (\r is part of a word, not a blank). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

interface PendingHeredoc {
  redirect: ShellRedirect;
  delimiter: string;
  stripTabs: boolean;
}

class Parser {
  i = 0;
  private pending: PendingHeredoc[] = [];

  constructor(
    private readonly src: string,
    private readonly out: ShellParse,
    private nesting: number,
    private subshell: number,
  ) {}

  problem(message: string): void {
    if (!this.out.problems.includes(message)) this.out.problems.push(message);
  }

  private at(s: string): boolean {
    return this.src.startsWith(s, this.i);
  }

  /** Spaces, tabs, line continuations and comments (a # that starts a word). */
  private skipBlanks(): void {
    const s = this.src;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === ' ' || c === '\t') this.i++;
      else if (c === '\\' && s[this.i + 1] === '\n') this.i += 2;
      else if (c === '#') {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
      } else break;
    }
  }

  /** Parses commands until the end, or until the `)` that closes a subshell or substitution. */
  parseList(closed: boolean, origin: string): void {
    if (this.nesting > MAX_NESTING) {
      this.problem('substitutions or subshells are nested too deeply');
      this.i = this.src.length;
      return;
    }
    let piped = false;
    for (;;) {
      this.skipBlanks();
      const s = this.src;
      if (this.i >= s.length) {
        if (closed) this.problem('a ( or $( is never closed');
        return;
      }
      const c = s[this.i];
      if (c === '\n') {
        this.i++;
        this.readHeredocs();
        piped = false;
      } else if (c === ')') {
        this.i++;
        if (closed) return;
        this.problem('a ) closes nothing');
      } else if (c === ';') {
        if (s[this.i + 1] === ';' || s[this.i + 1] === '&') this.problem('case clauses (;; ;&) are not supported');
        this.i++;
        piped = false;
      } else if (c === '&' && !this.at('&>')) {
        this.i += this.at('&&') ? 2 : 1;
        piped = false;
      } else if (c === '|') {
        if (this.at('||')) {
          this.i += 2;
          piped = false;
        } else {
          this.i += this.at('|&') ? 2 : 1;
          piped = true;
        }
      } else {
        const cmd = this.parseCommand(origin, piped);
        piped = false;
        this.skipBlanks();
        const next = s[this.i];
        const backgroundOrPipe = (next === '|' && !this.at('||')) || (next === '&' && !this.at('&&') && !this.at('&>'));
        if (backgroundOrPipe) cmd.sequential = false;
        this.out.commands.push(cmd);
      }
    }
  }

  private parseCommand(origin: string, piped: boolean): ShellCommand {
    const cmd: ShellCommand = {
      assignments: [],
      words: [],
      redirects: [],
      origin,
      pipedInput: piped,
      sequential: origin === 'command' && this.subshell === 0 && !piped,
    };
    const s = this.src;
    let atStart = true;
    for (;;) {
      this.skipBlanks();
      if (this.i >= s.length) break;
      const c = s[this.i];
      if (c === '\n' || c === ';' || c === '|' || c === ')') break;
      if (c === '&' && !this.at('&>')) break;
      if (c === '(') {
        if (atStart && cmd.words.length === 0 && cmd.assignments.length === 0) {
          if (this.at('((')) {
            this.problem('arithmetic commands (( … )) are not supported');
            this.skipArithmetic(this.i + 2);
          } else {
            this.i++;
            this.nesting++;
            this.subshell++;
            this.parseList(true, '( )');
            this.nesting--;
            this.subshell--;
          }
          atStart = false;
          continue;
        }
        if (cmd.words.length === 1 && /^\(\s*\)/.test(s.slice(this.i))) {
          this.problem('function definitions are not supported');
          this.i = s.indexOf(')', this.i) + 1;
          cmd.words = [];
          atStart = true;
          continue;
        }
        this.problem('a ( appears where bash does not expect one');
        this.i++;
        continue;
      }
      const redirect = this.readRedirect();
      if (redirect) {
        cmd.redirects.push(redirect);
        continue;
      }
      const w = this.readWord();
      if (w && /^\{.*\}$/.test(w.value) && /[<>]/.test(s[this.i] ?? ''))
        this.problem('named file descriptors ({var}>file) are not supported');
      if (!w) {
        this.problem(`unexpected ${JSON.stringify(c)}`);
        this.i++;
        continue;
      }
      if (atStart) {
        const m = ASSIGNMENT.exec(w.value);
        if (m && m[0].length <= w.plain) {
          if (m[2])
            this.problem('an array subscript in an assignment is evaluated as arithmetic, which can run commands');
          if (s[this.i] === '(') {
            this.problem('array assignments are not supported');
            this.skipParens();
          }
          cmd.assignments.push({ name: m[1], value: { ...w, value: w.value.slice(m[0].length), tilde: false } });
          continue;
        }
        if (!w.quoted && cmd.assignments.length === 0 && this.keyword(w.value, cmd)) continue;
      }
      atStart = false;
      cmd.words.push(w);
      if (cmd.words.length === 1 && !w.quoted && w.value === '[[') this.readTestWords(cmd);
    }
    return cmd;
  }

  /** Reserved words at the start of a command. Returns true when the word was one (and consumed). */
  private keyword(word: string, cmd: ShellCommand): boolean {
    switch (word) {
      case '!':
      case 'if':
      case 'then':
      case 'elif':
      case 'else':
      case 'while':
      case 'until':
      case 'do':
      case '{':
      case 'fi':
      case 'done':
      case '}':
        return true;
      case 'time':
        this.skipBlanks();
        if (/^-p[\s;]/.test(this.src.slice(this.i, this.i + 3))) this.i += 2;
        return true;
      case 'for':
      case 'select':
        this.readLoopHeader(word);
        cmd.words = [];
        return true;
      case 'case':
      case 'esac':
        this.problem('case statements are not supported');
        return false;
      case 'function':
      case 'coproc':
        this.problem(`${word} is not supported`);
        return false;
      default:
        return false;
    }
  }

  /** `for NAME in WORDS` up to the separator: the words are data (their substitutions still count). */
  private readLoopHeader(word: string): void {
    this.skipBlanks();
    if (this.at('((')) {
      this.problem(`${word} (( … )) loops are not supported`);
      this.skipArithmetic(this.i + 2);
      return;
    }
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.i];
      if (c === undefined || c === '\n' || c === ';' || c === '&' || c === '|' || c === ')') return;
      if (!this.readWord()) {
        this.problem(`unexpected ${JSON.stringify(c)} in a ${word} loop`);
        this.i++;
      }
    }
  }

  /** The words of `[[ … ]]`, where < > && || ( ) are operators of the test, not of the shell. */
  private readTestWords(cmd: ShellCommand): void {
    for (;;) {
      this.skipBlanks();
      const s = this.src;
      if (this.i >= s.length || s[this.i] === '\n') {
        this.problem('a [[ is never closed');
        return;
      }
      if (this.at(']]') && (this.i + 2 >= s.length || WORD_END.has(s[this.i + 2]))) {
        this.i += 2;
        cmd.words.push(literal(']]'));
        return;
      }
      const op = /^(&&|\|\||[<>()!|&])/.exec(s.slice(this.i, this.i + 2));
      if (op) {
        this.i += op[0].length;
        cmd.words.push(literal(op[0]));
        continue;
      }
      const w = this.readWord();
      if (w && !w.quoted && /^-(eq|ne|lt|le|gt|ge|v)$/.test(w.value))
        this.problem(`[[ ${w.value} ]] evaluates its operands as arithmetic, where a[$(cmd)] runs a command`);
      if (w) cmd.words.push(w);
      else this.i++;
    }
  }

  private readRedirect(): ShellRedirect | undefined {
    const s = this.src;
    const m = REDIRECT.exec(s.slice(this.i, this.i + 16));
    if (!m) return undefined;
    const op = m[2];
    // <( and >( are process substitutions, not redirections.
    if (!m[1] && (op === '<' || op === '>') && s[this.i + 1] === '(') return undefined;
    this.i += m[0].length;
    this.skipBlanks();
    const target = this.readWord();
    if (!target) {
      this.problem(`the redirection ${op} has no target`);
      return { op, fd: m[1] ? Number(m[1]) : undefined, target: literal('') };
    }
    const redirect: ShellRedirect = { op, fd: m[1] ? Number(m[1]) : undefined, target };
    if (op === '<<' || op === '<<-') {
      redirect.heredoc = { body: '', quoted: target.quoted };
      this.pending.push({ redirect, delimiter: target.value, stripTabs: op === '<<-' });
    }
    return redirect;
  }

  /** Reads the bodies of the here-documents started on the line just ended. */
  private readHeredocs(): void {
    const s = this.src;
    for (const h of this.pending) {
      const lines: string[] = [];
      for (;;) {
        if (this.i >= s.length) break;
        let end = s.indexOf('\n', this.i);
        if (end < 0) end = s.length;
        const line = s.slice(this.i, end);
        this.i = Math.min(end + 1, s.length);
        if ((h.stripTabs ? line.replace(/^\t+/, '') : line) === h.delimiter) break;
        lines.push(line);
      }
      const body = lines.join('\n');
      h.redirect.heredoc = { body, quoted: h.redirect.target.quoted };
      // An unquoted delimiter leaves $( ), ` ` and ${ } active in the body.
      if (!h.redirect.target.quoted && /[$`]/.test(body)) {
        const sub = new Parser(body, this.out, this.nesting + 1, this.subshell + 1);
        sub.readDouble(false);
      }
    }
    this.pending = [];
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
  private inWord(at: number): boolean {
    const prev = this.src[at - 1];
    return prev !== undefined && !WORD_END.has(prev);
  }

  /** Parses a nested command list up to its `)`. */
  private nested(origin: string): void {
    this.nesting++;
    this.subshell++;
    this.parseList(true, origin);
    this.nesting--;
    this.subshell--;
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
  private readDollar(inDouble: boolean): { value: string; dynamic: boolean; quoted: boolean } {
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
        if (/[$`]/.test(inner)) new Parser(inner, this.out, this.nesting + 1, this.subshell + 1).readDouble(false);
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
  private matchingBrace(from: number): number {
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
  private skipArithmetic(from: number): void {
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
  private skipParens(): void {
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
  private readBackticks(): string {
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
    const sub = new Parser(body, this.out, this.nesting + 1, this.subshell + 1);
    sub.parseList(false, '` `');
    return s.slice(start, this.i);
  }

  /** $'…' with its escapes decoded, so `$'\x72m'` is judged as `rm`. */
  private readAnsiC(): { value: string; dynamic: boolean; quoted: boolean } {
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

function literal(value: string): ShellWord {
  return { value, dynamic: false, pattern: false, tilde: false, quoted: false, plain: value.length };
}

/** Parses a command line into its simple commands. Never throws; what it cannot read is in `problems`. */
export function parseShell(src: string, origin = 'command'): ShellParse {
  const out: ShellParse = { commands: [], problems: [] };
  const control = CONTROL.exec(src);
  if (control)
    out.problems.push(
      `it holds a control character (U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')}) that bash ` +
        'reads differently from how it looks',
    );
  const p = new Parser(src, out, 0, origin === 'command' ? 0 : 1);
  p.parseList(false, origin);
  return out;
}
