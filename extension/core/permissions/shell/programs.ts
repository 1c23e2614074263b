// What the command analysis knows about programs and builtins: which ones wrap another command,
// write the files they name, run code, or change what later commands do; and which environment
// variables make an ordinary program load other code. Data, read by analyse.ts and options.ts.
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);
export const INTERPRETER = new RegExp(
  '^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|ruby|irb|perl|php|lua[0-9.]*|luajit|Rscript|R|osascript|' +
    'pwsh|powershell|tclsh|wish|source|\\.)$',
);
export const INERT = new Set([
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
export const RISKY_ENV = new RegExp(
  `^(${[
    'PATH|LD_\\w*|DYLD_\\w*|BASH_ENV|ENV|BASH_FUNC_\\S*|IFS|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|CDPATH',
    'HOME|ZDOTDIR|XDG_CONFIG_HOME|NODE_OPTIONS|NODE_PATH|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME',
    'PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS',
    'GIT_\\w*|NPM_CONFIG_\\w*|YARN_\\w*|EDITOR|VISUAL|PAGER|MANPAGER|BROWSER|LESSOPEN|LESSCLOSE',
    'SSH_ASKPASS|SUDO_ASKPASS',
  ].join('|')})$`,
  'i',
);
export const ASSIGN_WORD = /^([A-Za-z_][A-Za-z0-9_]*)=/;
export const HARMLESS_DEV = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
export const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

export interface WrapperSpec {
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
export const WRAPPERS: Record<string, WrapperSpec> = {
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
export interface WriterSpec {
  values: string[];
  targets: 'all' | 'last' | 'afterFirst';
}
export const WRITERS: Record<string, WriterSpec> = {
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
export const OUTPUT_OPTIONS: Record<string, { short: string; long: string[] }> = {
  curl: { short: 'oDc', long: ['--output', '--dump-header', '--cookie-jar', '--trace', '--trace-ascii', '--stderr'] },
  wget: { short: 'Ooa', long: ['--output-document', '--output-file', '--append-output'] },
  sort: { short: 'o', long: ['--output'] },
  patch: { short: 'o', long: ['--output'] },
  // BSD/macOS base64 (-o FILE, -oFILE, --output=FILE); GNU's has no -o, so nothing is lost there.
  base64: { short: 'o', long: ['--output'] },
};

/** Why an allowed git command could still run any program, or undefined. */
export function gitRunsCode(args: string[]): string | undefined {
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
export const RUNS_CODE: Record<string, [RegExp, string]> = {
  rg: [/^--(pre|hostname-bin)(=|$)/, "rg --pre and --hostname-bin run a program of the caller's choosing"],
  tar: [
    /^(--to-command|--checkpoint-action|--use-compress-program|-I|--info-script|-F|--new-volume-script|--rsh-command)/,
    'these tar options run a program',
  ],
  rsync: [/^(-e|--rsh|--rsync-path)/, 'rsync -e and --rsync-path run a program'],
  ssh: [/proxycommand|localcommand/i, 'ssh ProxyCommand and LocalCommand run a program'],
  scp: [/proxycommand|^-S$/i, 'scp -S and ProxyCommand run a program'],
};
