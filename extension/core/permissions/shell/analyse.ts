// From parsed shell to what the policy judges: the pieces a command runs (through wrappers such as
// `timeout`, `xargs`, `sudo`, and into `bash -c '…'`, `eval`, `find -exec`), the files it writes
// (redirections, tee, cp/mv/rm …), and findings — things no rule can vouch for, so the call asks.
import { isAbsolutePath, normalizePath, expandHome, SECRET_WORD } from '../paths';
import { parseShell, type ShellCommand, type ShellWord } from './parse';

export interface CommandPiece {
  /** Program and arguments as the shell passes them (quotes removed, escapes decoded). */
  argv: string[];
  /** argv joined by single spaces: what `bash(…)` rules match. */
  text: string;
  /** With its wrappers (`sudo npm test`), for the card. */
  shown: string;
  /** Texts deny and ask rules are matched against (with wrappers, with the program's path dropped). */
  denyTexts: string[];
  /** Texts an allow rule may match. */
  allowTexts: string[];
  /** Why a rule with a wildcard does not cover this piece (it can run any program); an exact rule may. */
  exactOnly?: string;
  /** Gets more arguments at run time (xargs): only a rule with a wildcard covers it. */
  openArgs?: boolean;
  /** A builtin that changes nothing by itself (cd, echo, true, export …): needs no rule beside others. */
  inert?: boolean;
  /** Judged by deny and ask rules only: a wrapper whose inner commands are judged in their own right. */
  transparent?: boolean;
}

export interface CommandWrite {
  /** Normalized absolute path; for a pattern, the folder the pattern stays in. */
  path: string;
  /** For a pattern target (`*.log`): the pattern below `path`. */
  glob?: string;
  /** As written in the command. */
  shown: string;
  /** What writes it: "a redirection", "tee", "cp" … */
  by: string;
}

export interface CommandFinding {
  kind: 'parse' | 'confinement';
  reason: string;
}

export interface CommandAnalysis {
  pieces: CommandPiece[];
  writes: CommandWrite[];
  findings: CommandFinding[];
}

interface Wrap {
  /** Wrapper text around the command (`sudo -u root`, `timeout 10`). */
  chain: string[];
  elevated: boolean;
  openArgs: boolean;
}

interface State {
  /** The folder relative paths resolve against; undefined once a `cd` makes it unknown. */
  cwd: string | undefined;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
const INTERPRETER = new RegExp(
  '^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|ruby|irb|perl|php|lua[0-9.]*|luajit|Rscript|R|osascript|' +
    'pwsh|powershell|tclsh|wish|source|\\.)$',
);
const INERT = new Set([
  'cd',
  'pushd',
  'popd',
  'pwd',
  'true',
  'false',
  ':',
  'echo',
  'printf',
  'test',
  '[',
  '[[',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'set',
  'unset',
  'shift',
  'sleep',
  'wait',
  'read',
  'exit',
  'return',
  'break',
  'continue',
]);
/** Environment variables that make an ordinary program load or run other code. */
const RISKY_ENV = new RegExp(
  `^(${[
    'PATH|LD_\\w*|DYLD_\\w*|BASH_ENV|ENV|BASH_FUNC_\\S*|IFS|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|CDPATH',
    'HOME|ZDOTDIR|XDG_CONFIG_HOME|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME',
    'PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS',
    'GIT_\\w*|NPM_CONFIG_\\w*|YARN_\\w*|EDITOR|VISUAL|PAGER|MANPAGER|BROWSER|LESSOPEN|LESSCLOSE',
    'SSH_ASKPASS|SUDO_ASKPASS',
  ].join('|')})$`,
  'i',
);
const ASSIGN_WORD = /^([A-Za-z_][A-Za-z0-9_]*)=/;
const HARMLESS_DEV = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

interface WrapperSpec {
  /** Options that take the next word as their value. */
  values?: string[];
  /** Positional words before the command (timeout's duration). */
  positional?: number;
  /** Runs the command as another user. */
  elevates?: boolean;
  /** Adds arguments at run time. */
  openArgs?: boolean;
  /** Takes NAME=value words before the command. */
  env?: boolean;
  /** Options that make it look a command up rather than run it. */
  lookup?: string[];
}

const TIMEOUT: WrapperSpec = { values: ['-s', '--signal', '-k', '--kill-after'], positional: 1 };
const WRAPPERS: Record<string, WrapperSpec> = {
  env: { values: ['-u', '--unset', '-C', '--chdir'], env: true },
  nice: { values: ['-n', '--adjustment'] },
  nohup: {},
  timeout: TIMEOUT,
  gtimeout: TIMEOUT,
  time: { values: ['-f', '--format', '-o', '--output'] },
  command: { lookup: ['-v', '-V'] },
  builtin: {},
  exec: { values: ['-a'] },
  stdbuf: { values: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  ionice: { values: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  setsid: {},
  chronic: {},
  unbuffer: {},
  xargs: {
    values: ['-a', '--arg-file', '-d', '--delimiter', '-E', '-I', '-L', '-n', '--max-args', '-P', '--max-procs', '-s'],
    openArgs: true,
  },
  sudo: {
    values: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-C',
      '-D',
      '--chdir',
      '-h',
      '--host',
      '-p',
      '--prompt',
      '-r',
      '-t',
      '-T',
    ],
    elevates: true,
  },
  doas: { values: ['-u', '-C'], elevates: true },
};

/** Programs that write the files named in their arguments (best effort: the common file utilities). */
interface WriterSpec {
  values: string[];
  targets: 'all' | 'last' | 'afterFirst';
}
const WRITERS: Record<string, WriterSpec> = {
  cp: { values: ['-S', '--suffix'], targets: 'last' },
  mv: { values: ['-S', '--suffix'], targets: 'all' },
  install: { values: ['-m', '--mode', '-o', '--owner', '-g', '--group', '-S', '--suffix'], targets: 'last' },
  ln: { values: ['-S', '--suffix'], targets: 'last' },
  rm: { values: [], targets: 'all' },
  rmdir: { values: [], targets: 'all' },
  unlink: { values: [], targets: 'all' },
  shred: { values: ['-n', '--iterations', '-s', '--size'], targets: 'all' },
  touch: { values: ['-r', '--reference', '-d', '--date', '-t'], targets: 'all' },
  truncate: { values: ['-s', '--size', '-r', '--reference'], targets: 'all' },
  mkdir: { values: ['-m', '--mode'], targets: 'all' },
  chmod: { values: [], targets: 'afterFirst' },
  chown: { values: [], targets: 'afterFirst' },
  chgrp: { values: [], targets: 'afterFirst' },
  tee: { values: ['--output-error'], targets: 'all' },
};

/** Options that name a file the program writes: `wget -O file`, `sort -o file`, `curl -o file`. */
const OUTPUT_OPTIONS: Record<string, { short: string; long: string[] }> = {
  curl: { short: 'oDc', long: ['--output', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--stderr'] },
  wget: { short: 'Ooa', long: ['--output-document', '--output-file', '--append-output'] },
  sort: { short: 'o', long: ['--output'] },
  patch: { short: 'o', long: ['--output'] },
};

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const show = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}…` : s);

/** Non-option arguments (after `--` everything counts), skipping the values of `values` options. */
function operands(ws: ShellWord[], values: string[]): { operands: ShellWord[]; options: string[] } {
  const out: ShellWord[] = [];
  const options: string[] = [];
  let ended = false;
  for (let i = 1; i < ws.length; i++) {
    const v = ws[i].value;
    if (!ended && v === '--') ended = true;
    else if (!ended && v.startsWith('-') && v.length > 1) {
      options.push(v);
      if (values.includes(v)) i++;
    } else out.push(ws[i]);
  }
  return { operands: out, options };
}

/** Why an allowed git command could still run any program, or undefined. */
function gitRunsCode(args: string[]): string | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '-c' || a.startsWith('--config-env'))
      return 'git -c can set options (core.fsmonitor, core.sshCommand, alias.*) that run programs';
    if (a.startsWith('--exec-path=')) return 'git --exec-path chooses the programs git runs';
    if (a === '-C' || a === '--git-dir' || a === '--work-tree' || a === '--namespace') i++;
    else if (!a.startsWith('-')) break;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  const nonOptions = rest.filter((r) => !r.startsWith('-'));
  if (
    sub === 'config' &&
    (nonOptions.length >= 2 || nonOptions[0] === 'set' || rest.some((r) => /^(-e|--edit|--add|--replace-all)$/.test(r)))
  )
    return 'git config can set options that make later git commands run programs';
  if (sub === 'submodule' && rest.includes('foreach')) return 'git submodule foreach runs a command';
  if (sub === 'bisect' && rest[0] === 'run') return 'git bisect run runs a command';
  if (sub === 'rebase' && rest.some((r) => r === '-x' || r.startsWith('--exec')))
    return 'git rebase --exec runs a command';
  if (sub === 'filter-branch' || sub === 'filter-repo') return `git ${sub} runs shell snippets`;
  if ((sub === 'difftool' || sub === 'mergetool') && rest.some((r) => r === '-x' || r.startsWith('--extcmd')))
    return `git ${sub} --extcmd runs a program`;
  if (rest.some((r) => /^--(upload-pack|receive-pack|exec)(=|$)/.test(r))) return 'git --upload-pack runs a program';
  if (sub === 'clone' && rest.some((r) => r === '-c' || r.startsWith('--config') || r === '-u'))
    return 'git clone -c and -u can make git run programs';
  return undefined;
}

/** Options of other programs that run a program of the caller's choosing. */
const RUNS_CODE: Record<string, [RegExp, string]> = {
  rg: [/^--pre(=|$)/, 'rg --pre runs a program on every file'],
  tar: [
    /^(--to-command|--checkpoint-action|--use-compress-program|-I|--info-script|-F|--new-volume-script|--rsh-command)/,
    'these tar options run a program',
  ],
  rsync: [/^(-e|--rsh|--rsync-path)/, 'rsync -e and --rsync-path run a program'],
  ssh: [/proxycommand|localcommand/i, 'ssh ProxyCommand and LocalCommand run a program'],
  scp: [/proxycommand|^-S$/i, 'scp -S and ProxyCommand run a program'],
};

class Analyzer {
  readonly pieces: CommandPiece[] = [];
  readonly writes: CommandWrite[] = [];
  readonly findings: CommandFinding[] = [];

  constructor(private readonly home: string) {}

  finding(kind: CommandFinding['kind'], reason: string): void {
    if (!this.findings.some((f) => f.reason === reason)) this.findings.push({ kind, reason });
  }

  run(src: string, origin: string, state: State, depth: number, wrap: Wrap): void {
    if (depth > 6) {
      this.finding('parse', 'commands are nested too deeply (bash -c inside bash -c …)');
      return;
    }
    const parsed = parseShell(src, origin);
    for (const p of parsed.problems) this.finding('parse', `the command cannot be read with confidence: ${p}`);
    for (const cmd of parsed.commands) this.command(cmd, state, depth, wrap);
  }

  private command(cmd: ShellCommand, state: State, depth: number, wrap: Wrap): void {
    const program = cmd.words[0]?.value ?? '';
    for (const a of cmd.assignments) this.assignment(a.name, a.value, program);
    for (const r of cmd.redirects) {
      const fdTarget = /^(\d+|-)$/.test(r.target.value);
      if (WRITE_OPS.has(r.op) || (r.op === '>&' && !fdTarget)) this.write(r.target, 'a redirection', state);
      if (r.op === '<' || r.op === '<>' || (r.op === '<&' && !fdTarget)) this.mention(r.target.value);
    }
    if (cmd.words.length > 0) this.words(cmd.words, cmd, state, depth, wrap);
  }

  private assignment(name: string, value: ShellWord, program: string): void {
    if (RISKY_ENV.test(name))
      this.finding(
        'parse',
        `it sets ${name}, which can make ${program ? basename(program) : 'later commands'} run other code`,
      );
    this.mention(value.value);
  }

  /** A word naming a secret location asks, whatever the rules: `cat ~/.ssh/id_rsa`. */
  private mention(value: string): void {
    if (SECRET_WORD.test(value))
      this.finding(
        'confinement',
        `the command mentions ${show(value)}: commands touching keys and credentials always ask`,
      );
  }

  private words(ws: ShellWord[], cmd: ShellCommand, state: State, depth: number, wrap: Wrap): void {
    const argv = ws.map((w) => w.value);
    const text = argv.join(' ');
    for (const w of ws) this.mention(w.value);
    const prog = ws[0];
    const chained = wrap.chain.length ? `${wrap.chain.join(' ')} ${text}` : text;
    if (prog.dynamic || prog.pattern || prog.value === '') {
      this.finding('parse', `the program \`${show(prog.value)}\` is only known when the command runs`);
      const spaced = text.replace(/\$\{IFS\}|\$IFS\b/g, ' ').replace(/ +/g, ' ');
      this.pieces.push({
        argv,
        text,
        shown: chained,
        denyTexts: [text, spaced, chained],
        allowTexts: [],
        transparent: true,
      });
      return;
    }
    const name = basename(prog.value);
    const denyTexts = [text, chained];
    if (prog.value.includes('/')) denyTexts.push([name, ...argv.slice(1)].join(' '));
    // On a case-insensitive file system `RM` runs rm.
    if (name !== name.toLowerCase()) denyTexts.push([name.toLowerCase(), ...argv.slice(1)].join(' '));
    // xargs adds arguments at run time: `bash(rm *)` must catch `xargs rm`.
    if (wrap.openArgs) denyTexts.push(...denyTexts.map((t) => `${t} …`));

    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    let lookupOnly = false;
    if (wrapper) {
      const { start, lookup } = this.splitWrapper(name, wrapper, ws);
      lookupOnly = lookup;
      if (start < ws.length && !lookup) {
        const head = argv.slice(0, start).join(' ');
        this.words(ws.slice(start), cmd, state, depth, {
          chain: [...wrap.chain, head],
          elevated: wrap.elevated || Boolean(wrapper.elevates),
          openArgs: wrap.openArgs || Boolean(wrapper.openArgs),
        });
        return;
      }
    }

    // bash -c, eval, watch: the text they run is judged as commands of its own; the wrapper itself
    // only meets deny and ask rules.
    const inner = (src: string | undefined, origin: string) => {
      this.pieces.push({ argv, text, shown: chained, denyTexts, allowTexts: [], transparent: true });
      if (src === undefined) this.finding('parse', `${origin} runs text that is only known when the command runs`);
      else this.run(src, origin, { cwd: state.cwd }, depth + 1, { ...wrap, chain: [...wrap.chain, origin] });
    };
    if (SHELLS.has(name)) {
      const script = this.shellScript(ws);
      if (script.command) {
        inner(script.command.dynamic ? undefined : script.command.value, `${name} -c`);
        return;
      }
    }
    if (name === 'eval' || name === 'watch') {
      const args = name === 'watch' ? ws.slice(watchStart(ws)) : ws.slice(1);
      inner(args.some((w) => w.dynamic) ? undefined : args.map((w) => w.value).join(' '), name);
      return;
    }
    if (SHELLS.has(name) || INTERPRETER.test(name)) this.interpreter(name, ws, cmd);
    if (name === 'find') this.find(ws, cmd, state, depth, wrap);
    if (name === 'alias' || name === 'trap' || name === 'enable' || (name === 'hash' && argv.includes('-p')))
      this.finding('parse', `${name} changes what later commands do, which the policy cannot follow`);
    if (name === 'cd' || name === 'pushd' || name === 'popd') this.cd(name, ws, cmd, state, wrap);
    if (name === 'export' || name === 'declare' || name === 'typeset' || name === 'local' || name === 'readonly') {
      for (const w of ws.slice(1)) {
        const m = ASSIGN_WORD.exec(w.value) ?? /^([A-Za-z_]\w*)$/.exec(w.value);
        if (m && RISKY_ENV.test(m[1]) && (w.value.includes('=') || name !== 'export'))
          this.assignment(m[1], w, 'later commands');
      }
    }
    if (name === 'read') for (const w of ws.slice(1)) if (RISKY_ENV.test(w.value)) this.assignment(w.value, w, '');
    if (name === 'printf' && argv[1] === '-v' && argv[2] && RISKY_ENV.test(argv[2]))
      this.assignment(argv[2], ws[2], '');

    const writer = Object.hasOwn(WRITERS, name) ? WRITERS[name] : undefined;
    if (writer) this.writerTargets(name, writer, ws, state);
    if (name === 'dd') for (const w of ws) if (w.value.startsWith('of=')) this.write(sliceWord(w, 3), 'dd', state);
    if (Object.hasOwn(OUTPUT_OPTIONS, name)) this.outputOptions(name, OUTPUT_OPTIONS[name], ws, state);
    if ((name === 'sed' || name === 'gsed') && argv.some((a) => /^(-i|--in-place)/.test(a) || /^-[a-zA-Z]*i/.test(a))) {
      const { operands: ops, options } = operands(ws, ['-e', '--expression', '-f', '--file', '-l']);
      const scripted = options.some((o) => /^(-e|--expression|-f|--file)/.test(o));
      for (const w of scripted ? ops : ops.slice(1)) this.write(w, 'sed -i', state);
    }

    let exactOnly: string | undefined;
    if (name === 'git') exactOnly = gitRunsCode(argv.slice(1));
    const runs = Object.hasOwn(RUNS_CODE, name) ? RUNS_CODE[name] : undefined;
    if (runs && argv.slice(1).some((a) => runs[0].test(a))) exactOnly = runs[1];

    this.pieces.push({
      argv,
      text,
      shown: chained,
      denyTexts: [...new Set(denyTexts)],
      allowTexts: wrap.elevated ? [chained] : [...new Set([text, chained])],
      exactOnly,
      openArgs: wrap.openArgs || undefined,
      inert:
        (INERT.has(name) && !prog.value.includes('/')) ||
        lookupOnly ||
        (name === 'exec' && ws.length === 1) ||
        undefined,
    });
  }

  /** Where a wrapper's own options end and the wrapped command starts. */
  private splitWrapper(name: string, spec: WrapperSpec, ws: ShellWord[]): { start: number; lookup: boolean } {
    let i = 1;
    let lookup = false;
    const assignments: ShellWord[] = [];
    while (i < ws.length) {
      const v = ws[i].value;
      if (v === '--') {
        i++;
        break;
      }
      if (spec.env && ASSIGN_WORD.test(v)) {
        assignments.push(ws[i]);
        i++;
        continue;
      }
      if (!v.startsWith('-') || v === '-') break;
      if (name === 'env' && (/^-[^-]*S/.test(v) || v.startsWith('--split-string')))
        this.finding('parse', 'env -S splits a string into a command, which the policy does not follow');
      if (spec.lookup?.includes(v)) lookup = true;
      i += spec.values?.includes(v) ? 2 : 1;
    }
    const start = Math.min(ws.length, i + (spec.positional ?? 0));
    for (const w of assignments) {
      const eq = w.value.indexOf('=');
      this.assignment(w.value.slice(0, eq), sliceWord(w, eq + 1), basename(ws[start]?.value ?? ''));
    }
    return { start, lookup };
  }

  /** For sh/bash/…: the -c command string, if any. */
  private shellScript(ws: ShellWord[]): { command?: ShellWord } {
    let hasC = false;
    let i = 1;
    for (; i < ws.length; i++) {
      const v = ws[i].value;
      if (v === '--' || v === '-') break;
      if (!/^[-+]./.test(v)) break;
      if (v === '--rcfile' || v === '--init-file' || v === '-o' || v === '+o' || v === '-O' || v === '+O') i++;
      else if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(v)) hasC = true;
    }
    if (!hasC) return {};
    return { command: ws[i] ?? { value: '', dynamic: true, pattern: false, tilde: false, quoted: false, plain: 0 } };
  }

  /** An interpreter fed its program by a here-document, a pipe or <( ) runs text nobody judged. */
  private interpreter(name: string, ws: ShellWord[], cmd: ShellCommand): void {
    if (ws.slice(1).some((w) => w.procSub === '<'))
      this.finding('parse', `${name} runs the output of a <( … ) substitution as a script`);
    const args = ws.slice(1).map((w) => w.value);
    const stdinPath = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;
    const readsStdin =
      args.every((a) => a.startsWith('-')) ||
      args.some((a) => stdinPath.test(a)) ||
      (SHELLS.has(name) && args.includes('-s'));
    if (!readsStdin || name === 'source' || name === '.') return;
    const heredoc = cmd.redirects.find((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<');
    const fromFile = cmd.redirects.find((r) => r.op === '<');
    const what = heredoc?.op === '<<<' ? 'here-string' : 'here-document';
    if (heredoc) this.finding('parse', `the ${what} is a script for ${name}, which the policy does not judge`);
    else if (cmd.pipedInput)
      this.finding('parse', `${name} runs the previous command's output as a script, which the policy does not judge`);
    else if (fromFile) this.finding('parse', `${name} runs ${show(fromFile.target.value)} as a script`);
  }

  /** find -exec / -execdir / -ok CMD … ; runs CMD: judged as a piece of its own. */
  private find(ws: ShellWord[], cmd: ShellCommand, state: State, depth: number, wrap: Wrap): void {
    for (let i = 1; i < ws.length; i++) {
      const v = ws[i].value;
      if (v === '-fprint' || v === '-fprint0' || v === '-fprintf' || v === '-fls') {
        if (ws[i + 1]) this.write(ws[i + 1], `find ${v}`, state);
      }
      if (v !== '-exec' && v !== '-execdir' && v !== '-ok' && v !== '-okdir') continue;
      let end = i + 1;
      while (end < ws.length && ws[end].value !== ';' && ws[end].value !== '+') end++;
      if (end > i + 1)
        this.words(ws.slice(i + 1, end), { ...cmd, redirects: [] }, state, depth, { ...wrap, chain: [] });
      i = end;
    }
  }

  private cd(name: string, ws: ShellWord[], cmd: ShellCommand, state: State, wrap: Wrap): void {
    const target = ws.find((w, k) => k > 0 && !w.value.startsWith('-'));
    if (!cmd.sequential || wrap.chain.length || name !== 'cd') {
      state.cwd = undefined;
      return;
    }
    if (!target) {
      state.cwd = this.home;
      return;
    }
    state.cwd = this.resolve(target, state);
  }

  /** The absolute path a word names, or undefined when it is only known at run time. */
  private resolve(w: ShellWord, state: State): string | undefined {
    let v = w.value;
    if (w.dynamic) {
      v = v.replace(/\$\{HOME\}|\$HOME\b/g, this.home);
      if (state.cwd) v = v.replace(/\$\{PWD\}|\$PWD\b/g, state.cwd);
      if (/[$`]/.test(v)) return undefined;
    }
    if (w.tilde) {
      const e = expandHome(v, this.home);
      if (e === undefined) return undefined;
      v = e;
    }
    if (!isAbsolutePath(v)) {
      if (state.cwd === undefined) return undefined;
      v = `${state.cwd}/${v}`;
    }
    return normalizePath(v);
  }

  write(w: ShellWord, by: string, state: State): void {
    if (w.procSub) return;
    if (!w.dynamic && HARMLESS_DEV.test(w.value)) return;
    if (w.pattern) {
      const first = w.value.search(/[*?[{]/);
      const cut = w.value.lastIndexOf('/', first);
      const dirWord = { ...w, value: cut < 0 ? '.' : w.value.slice(0, cut) || '/', pattern: false };
      const dir = this.resolve(dirWord, state);
      if (dir !== undefined) {
        this.writes.push({ path: dir, glob: w.value.slice(cut + 1), shown: w.value, by });
        return;
      }
    } else {
      const path = this.resolve(w, state);
      if (path !== undefined) {
        this.writes.push({ path, shown: w.value, by });
        return;
      }
    }
    this.finding('parse', `${by} writes to ${show(w.value)}, a path only known when the command runs`);
  }

  /** Files named by output options; `curl -O` writes the URL's file name in the current folder. */
  private outputOptions(name: string, spec: { short: string; long: string[] }, ws: ShellWord[], state: State): void {
    let remoteName = false;
    for (let i = 1; i < ws.length; i++) {
      const v = ws[i].value;
      if (v === '--') break;
      let target: ShellWord | undefined;
      if (v.startsWith('--')) {
        const eq = v.indexOf('=');
        const opt = eq < 0 ? v : v.slice(0, eq);
        if (name === 'curl' && (opt === '--remote-name' || opt === '--remote-name-all')) remoteName = true;
        if (spec.long.includes(opt)) target = eq < 0 ? ws[++i] : sliceWord(ws[i], eq + 1);
      } else if (/^-[A-Za-z]/.test(v)) {
        if (name === 'curl' && /^-[A-Za-z]*O/.test(v)) remoteName = true;
        const at = [...v.slice(1)].findIndex((ch) => spec.short.includes(ch));
        if (at >= 0) target = at + 2 < v.length ? sliceWord(ws[i], at + 2) : ws[++i];
      }
      if (target && target.value !== '-') this.write(target, `${name} ${v.split('=')[0]}`, state);
    }
    if (!remoteName) return;
    for (const w of ws.slice(1)) {
      if (!/^[a-z]+:\/\//i.test(w.value)) continue;
      const m = /^[a-z]+:\/\/[^/]+\/(?:[^?#]*\/)?([^/?#]+)/i.exec(w.value);
      if (w.dynamic || !m)
        this.finding('parse', `curl -O writes a file named by ${show(w.value)}, known only when it runs`);
      else this.write({ ...w, value: m[1], tilde: false, pattern: false }, 'curl -O', state);
    }
  }

  private writerTargets(name: string, spec: WriterSpec, ws: ShellWord[], state: State): void {
    const { operands: ops, options } = operands(ws, spec.values);
    const targetDir = options.findIndex((o) => o === '-t' || o.startsWith('--target-directory'));
    let targets: ShellWord[];
    if (targetDir >= 0) {
      const at = ws.findIndex((w) => w.value === '-t' || w.value.startsWith('--target-directory'));
      const w = ws[at];
      targets = w.value.includes('=') ? [sliceWord(w, w.value.indexOf('=') + 1)] : ws[at + 1] ? [ws[at + 1]] : [];
    } else if (spec.targets === 'last') targets = ops.slice(-1);
    else if (spec.targets === 'afterFirst')
      targets = options.some((o) => o.startsWith('--reference')) ? ops : ops.slice(1);
    else targets = ops;
    for (const t of targets) this.write(t, name, state);
  }
}

/** watch's options end at its first operand; the rest is the command (run with sh -c). */
function watchStart(ws: ShellWord[]): number {
  let i = 1;
  while (i < ws.length && ws[i].value.startsWith('-')) {
    const v = ws[i].value;
    if (v === '--') return i + 1;
    i += v === '-n' || v === '--interval' || v === '-d' || v === '--differences' ? 2 : 1;
    if (v === '-d' || v === '--differences') i--; // -d takes an optional, attached value only
  }
  return i;
}

function sliceWord(w: ShellWord, from: number): ShellWord {
  return { ...w, value: w.value.slice(from), tilde: w.value[from] === '~', plain: Math.max(0, w.plain - from) };
}

/**
 * Everything a command line would run and write, for the policy to judge. `cwd` is the folder the
 * command starts in (the first workspace folder); `home` expands `~`.
 */
export function analyzeCommand(command: string, env: { home: string; cwd: string | undefined }): CommandAnalysis {
  const a = new Analyzer(env.home);
  a.run(command, 'command', { cwd: env.cwd }, 0, { chain: [], elevated: false, openArgs: false });
  return { pieces: a.pieces, writes: a.writes, findings: a.findings };
}
