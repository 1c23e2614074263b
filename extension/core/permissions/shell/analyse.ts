// From parsed shell to what the policy judges: the pieces a command runs (through wrappers such as
// `timeout`, `xargs`, `sudo`, and into `bash -c '…'`, `eval`, `find -exec`), the files it writes
// (redirections, tee, cp/mv/rm …), and findings — things no rule can vouch for, so the call asks.
import { expandHome, isAbsolutePath, normalizePath } from '../paths';
import type { CommandAnalysis, CommandFinding, CommandPiece, CommandWrite } from './command-analysis';
import { parseShell, type ShellCommand, type ShellWord } from './parse';
import {
  ASSIGN_WORD,
  gitRunsCode,
  HARMLESS_DEV,
  INERT,
  INTERPRETER,
  OUTPUT_OPTIONS,
  RISKY_ENV,
  RUNS_CODE,
  SHELLS,
  WRAPPERS,
  WRITE_OPS,
  WRITERS,
  type WrapperSpec,
  type WriterSpec,
} from './programs';
import { builtinProblem, inlineCode, PROTECTED_IN_CODE } from './builtins';
import {
  gitConfigTarget,
  operands,
  interpreterProblems,
  outputTargets,
  sedScriptOf,
  shellScript,
  show,
  sliceWord,
  watchStart,
} from './words';
import { optionProblem } from './options';
import { mayBecomeOption, SLOT, shapesOf } from './run-time-words';
import { secretMentions } from './secret-mentions';

export type { CommandAnalysis, CommandFinding, CommandPiece, CommandWrite } from './command-analysis';

interface Wrap {
  /** Wrapper text around the command (`sudo -u root`, `timeout 10`). */
  chain: string[];
  /** The wrappers' words, in order (`timeout`, `10`): what a process list would show before argv. */
  chainArgv: string[];
  elevated: boolean;
  openArgs: boolean;
}

interface State {
  /** The folder relative paths resolve against; undefined once a `cd` makes it unknown. */
  cwd: string | undefined;
}

const basename = (p: string) => p.slice(p.lastIndexOf('/') + 1);

class Analyzer {
  readonly pieces: CommandPiece[] = [];
  readonly writes: CommandWrite[] = [];
  readonly findings: CommandFinding[] = [];

  constructor(private readonly home: string) {}

  finding(kind: CommandFinding['kind'], reason: string, ruleNames?: string): void {
    if (!this.findings.some((f) => f.reason === reason))
      this.findings.push({ kind, reason, ...(ruleNames ? { ruleNames } : {}) });
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
      if (WRITE_OPS.has(r.op) || (r.op === '>&' && !fdTarget)) this.write(r.target, 'a redirection', state, true);
      if (r.op === '<' || r.op === '<>' || (r.op === '<&' && !fdTarget)) this.mention(r.target.value, r.target);
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

  /** A word naming a secret location or a secret file asks, whatever the rules (secret-mentions.ts). */
  private mention(value: string, w?: ShellWord): void {
    const found = secretMentions(value, w, this.home);
    if (found) for (const f of found) this.finding(f.kind, f.reason, f.ruleNames);
  }

  private words(ws: ShellWord[], cmd: ShellCommand, state: State, depth: number, wrap: Wrap): void {
    const argv = ws.map((w) => w.value);
    const text = argv.join(' ');
    for (const w of ws) this.mention(w.value, w);
    const prog = ws[0];
    const chained = wrap.chain.length ? `${wrap.chain.join(' ')} ${text}` : text;
    if (prog.dynamic || prog.pattern || prog.value === '') {
      this.finding('parse', `the program \`${show(prog.value)}\` is only known when the command runs`);
      const spaced = text.replace(/\$\{IFS\}|\$IFS\b/g, ' ').replace(/ +/g, ' ');
      this.pieces.push({
        argv,
        text,
        shown: chained,
        wrapperArgv: wrap.chainArgv,
        denyTexts: [text, spaced, chained],
        allowTexts: [],
        transparent: true,
        denyShapes: [SLOT],
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
    const denyShapes = shapesOf(ws, name, wrap.chain, wrap.openArgs);

    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    let lookupOnly = false;
    if (wrapper) {
      const { start, lookup } = this.splitWrapper(name, wrapper, ws);
      lookupOnly = lookup;
      if (start < ws.length && !lookup) {
        const head = argv.slice(0, start).join(' ');
        this.words(ws.slice(start), cmd, state, depth, {
          chain: [...wrap.chain, head],
          chainArgv: [...wrap.chainArgv, ...argv.slice(0, start)],
          elevated: wrap.elevated || Boolean(wrapper.elevates),
          openArgs: wrap.openArgs || Boolean(wrapper.openArgs),
        });
        return;
      }
    }

    // bash -c, eval, watch: the text they run is judged as commands of its own; the wrapper itself
    // only meets deny and ask rules.
    const inner = (src: string | undefined, origin: string) => {
      this.pieces.push({
        argv,
        text,
        shown: chained,
        wrapperArgv: wrap.chainArgv,
        denyTexts,
        allowTexts: [],
        transparent: true,
        // Text only known at run time can be any command at all.
        denyShapes: src === undefined ? [SLOT] : denyShapes,
      });
      if (src === undefined) this.finding('parse', `${origin} runs text that is only known when the command runs`);
      else
        this.run(src, origin, { cwd: state.cwd }, depth + 1, {
          ...wrap,
          chain: [...wrap.chain, origin],
          chainArgv: [],
        });
    };
    if (SHELLS.has(name)) {
      const script = shellScript(ws);
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
    if (SHELLS.has(name) || INTERPRETER.test(name))
      for (const p of interpreterProblems(name, ws, cmd)) this.finding('parse', p);
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
    exactOnly ??= optionProblem(name, argv.slice(1), (i) => mayBecomeOption(ws[i + 1]));
    if (name === 'sed' || name === 'gsed') exactOnly ??= sedScriptOf(ws);
    if (!prog.value.includes('/')) {
      const builtin = builtinProblem(argv);
      if (builtin) this.finding('parse', builtin);
    }
    const gitConfig = name === 'git' ? gitConfigTarget(argv.slice(1)) : undefined;
    if (gitConfig) this.write(gitConfig, 'git config', state);
    const code = inlineCode(name, argv.slice(1));
    const named = code === undefined ? undefined : PROTECTED_IN_CODE.exec(code);
    if (named)
      this.finding('protected', `${name}'s inline code names ${named[0]}: writes to protected files always ask`);

    this.pieces.push({
      argv,
      text,
      shown: chained,
      wrapperArgv: wrap.chainArgv,
      denyTexts: [...new Set(denyTexts)],
      allowTexts: wrap.elevated ? [chained] : [...new Set([text, chained])],
      exactOnly,
      denyShapes,
      globbed: ws.some((w) => w.pattern) || undefined,
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
        this.words(ws.slice(i + 1, end), { ...cmd, redirects: [] }, state, depth, {
          ...wrap,
          chain: [],
          chainArgv: [],
        });
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

  write(w: ShellWord, by: string, state: State, redirect?: true): void {
    if (w.procSub) return;
    if (!w.dynamic && HARMLESS_DEV.test(w.value)) return;
    if (w.pattern) {
      const first = w.value.search(/[*?[{]/);
      const cut = w.value.lastIndexOf('/', first);
      const dirWord = { ...w, value: cut < 0 ? '.' : w.value.slice(0, cut) || '/', pattern: false };
      const dir = this.resolve(dirWord, state);
      if (dir !== undefined) {
        this.writes.push({
          path: dir,
          glob: w.value.slice(cut + 1),
          shown: w.value,
          by,
          ...(redirect && { redirect }),
        });
        return;
      }
    } else {
      const path = this.resolve(w, state);
      if (path !== undefined) {
        this.writes.push({ path, shown: w.value, by, ...(redirect && { redirect }) });
        return;
      }
    }
    this.finding('parse', `${by} writes to ${show(w.value)}, a path only known when the command runs`);
  }

  /** Files named by output options (`curl -o f`, `sort -o f`); `curl -O` writes the URL's file name here. */
  private outputOptions(name: string, spec: { short: string; long: string[] }, ws: ShellWord[], state: State): void {
    const { writes, unknown } = outputTargets(name, spec, ws);
    for (const [w, by] of writes) this.write(w, by, state);
    for (const u of unknown)
      this.finding('parse', `curl -O writes a file named by ${show(u)}, known only when it runs`);
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

/**
 * Everything a command line would run and write, for the policy to judge. `cwd` is the folder the
 * command starts in (the first workspace folder); `home` expands `~`.
 */
export function analyzeCommand(command: string, env: { home: string; cwd: string | undefined }): CommandAnalysis {
  const a = new Analyzer(env.home);
  a.run(command, 'command', { cwd: env.cwd }, 0, { chain: [], chainArgv: [], elevated: false, openArgs: false });
  return { pieces: a.pieces, writes: a.writes, findings: a.findings };
}
