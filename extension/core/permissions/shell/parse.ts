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
import { WORD_END, WordReader } from './lexer';
import { literal, type ShellCommand, type ShellParse, type ShellRedirect } from './syntax';

export type { ShellAssignment, ShellCommand, ShellParse, ShellRedirect, ShellWord } from './syntax';

const MAX_NESTING = 12;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
const REDIRECT = /^(\d*)(&>>|&>|>>|>\||>&|<<<|<<-|<<|<>|<&|>|<)/;
/** Characters bash reads differently from how they look (\r is part of a word, not a blank). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

interface PendingHeredoc {
  redirect: ShellRedirect;
  delimiter: string;
  stripTabs: boolean;
}

class Parser extends WordReader {
  private pending: PendingHeredoc[] = [];

  protected child(src: string): Parser {
    return new Parser(src, this.out, this.nesting + 1, this.subshell + 1);
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
        const sub = this.child(body);
        sub.readDouble(false);
      }
    }
    this.pending = [];
  }

  /** Parses a nested command list up to its `)`. */
  protected nested(origin: string): void {
    this.nesting++;
    this.subshell++;
    this.parseList(true, origin);
    this.nesting--;
    this.subshell--;
  }
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
