// Builtins and scripts whose effect the parse alone does not show. Several builtins take variable
// names, and bash evaluates an array subscript in a name as arithmetic — where `a[$(cmd)]` runs
// cmd (`printf -v 'a[$(cmd)]' x`, `read`, `declare`, `test -v`, `unset`, `[[ -v ]]`). Options such as
// `set -k` change how every later word is read. GNU sed scripts can run commands (`e`) and write
// files (`w`). Each of these makes the policy ask rather than guess.

import { escapeRegExp, PROTECTED_NAMES } from '../paths';

/** A protected file named in inline code (`node -e "…appendFileSync(home + '/.bashrc')"`). */
export const PROTECTED_IN_CODE = new RegExp(
  [...PROTECTED_NAMES, 'hooksPath', '.config/', '.local/bin', '.ssh/'].map(escapeRegExp).join('|'),
  'i',
);

/** Builtins whose arguments name variables (so a subscript in one is evaluated). */
const NAME_TAKING = new Set([
  'read',
  'printf',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'unset',
  'test',
  '[',
  'mapfile',
  'readarray',
  'wait',
  'getopts',
  'let',
]);

/** `set` options that only make the shell stricter or chattier. */
const SAFE_SET_LETTERS = /^[-+][euxvfC]+$/;
const SAFE_SET_NAMES = new Set(['errexit', 'nounset', 'xtrace', 'pipefail', 'verbose', 'noglob', 'noclobber']);

/** Why a builtin call cannot be judged, or undefined. `argv[0]` is the builtin's name. */
export function builtinProblem(argv: readonly string[]): string | undefined {
  const [name, ...args] = argv;
  if (name === 'let') return 'let evaluates arithmetic, where an array subscript runs commands';
  if (name === 'compgen' || name === 'complete' || name === 'fc' || name === 'bind')
    return `${name} can run commands the policy does not see`;
  if ((name === 'mapfile' || name === 'readarray') && args.some((a) => /^-[^-]*C/.test(a)))
    return `${name} -C runs a callback command`;
  if (name === 'shopt' && args.some((a) => /^-[^-]*[su]/.test(a)))
    return 'shopt changes how bash reads later commands (aliases, globs), which the policy cannot follow';
  if (name === 'set') return setProblem(args);
  if (!NAME_TAKING.has(name)) return undefined;
  if ((name === 'test' || name === '[') && !args.includes('-v')) return undefined;
  if (
    (name === 'declare' || name === 'typeset' || name === 'local' || name === 'export' || name === 'readonly') &&
    args.some((a) => /^[-+][a-zA-Z]*[in]/.test(a))
  )
    return `${name} -i / -n makes later assignments arithmetic or references, where a subscript runs commands`;
  if (name === 'printf' && args[0] !== '-v') return undefined;
  const names = name === 'printf' ? args.slice(1, 2) : args;
  // The name part of NAME=value; a name only known at run time may hold a subscript too.
  const subscript = names.map((a) => (a.includes('=') ? a.slice(0, a.indexOf('=')) : a)).find((a) => /[[$`]/.test(a));
  if (subscript !== undefined)
    return `${name} evaluates an array subscript in ${subscript.slice(0, 40)} as arithmetic, which can run commands`;
  return undefined;
}

function setProblem(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--' || a === '-' || !/^[-+]/.test(a)) return undefined; // the rest are positional parameters
    if (/^[-+][euxvfC]*o$/.test(a)) {
      const option = args[++i];
      if (option === undefined || SAFE_SET_NAMES.has(option)) continue;
      return `set -o ${option} changes how bash runs later commands, which the policy cannot follow`;
    }
    if (!SAFE_SET_LETTERS.test(a))
      return `set ${a} changes how bash reads later commands (set -k makes NAME=value words environment)`;
  }
  return undefined;
}

/**
 * Why a sed script is not judged: it may run a command (`e`, `s///e`), write a file (`w`, `W`,
 * `s///w`), or read one (`r`, `R`). Only addresses and the commands p d q Q n N = l z h H g G x D P
 * { } and s / y with plain flags pass.
 */
export function sedScriptProblem(script: string): string | undefined {
  const bad = 'the sed script may run commands or read and write files (e, w, r …), which the policy does not judge';
  let i = 0;
  const s = script;
  const skipBlank = () => {
    while (i < s.length && /[\s;]/.test(s[i])) i++;
  };
  const regex = (delim: string): boolean => {
    for (i++; i < s.length && s[i] !== delim; i++) if (s[i] === '\\') i++;
    if (i >= s.length) return false;
    i++;
    return true;
  };
  const address = () => {
    if (/\d/.test(s[i] ?? '')) while (/[\d~]/.test(s[i] ?? '')) i++;
    else if (s[i] === '$') i++;
    else if (s[i] === '/') return regex('/');
    else if (s[i] === '\\' && s[i + 1]) {
      i++;
      return regex(s[i]);
    }
    return true;
  };
  for (skipBlank(); i < s.length; skipBlank()) {
    if (!address()) return bad;
    if (s[i] === ',') {
      i++;
      if (s[i] === '+' || s[i] === '~') i++;
      if (!address()) return bad;
    }
    while (s[i] === ' ' || s[i] === '!') i++;
    const c = s[i++];
    if (c === undefined) return bad;
    if ('pdqQnN=lzhHgGxDP{}'.includes(c)) {
      if ((c === 'q' || c === 'Q') && /\d/.test(s[i] ?? '')) while (/\d/.test(s[i] ?? '')) i++;
      continue;
    }
    if (c === 's' || c === 'y') {
      const delim = s[i];
      if (!delim || /[\s\\\n]/.test(delim)) return bad;
      if (!regex(delim)) return bad;
      i--;
      if (!regex(delim)) return bad;
      if (c === 's') while (i < s.length && /[gpiIm0-9M]/.test(s[i])) i++;
      if (i < s.length && !/[\s;}]/.test(s[i])) return bad;
      continue;
    }
    return bad;
  }
  return undefined;
}

/** The code given inline to an interpreter (`node -e CODE`, `python -c CODE`), if any. */
export function inlineCode(name: string, args: readonly string[]): string | undefined {
  const flags = /^(node|nodejs|bun|deno)$/.test(name)
    ? /^(-e|--eval|-p|--print)$/
    : /^(python[0-9.]*|pypy[0-9.]*)$/.test(name)
      ? /^-c$/
      : /^(perl|ruby|php)$/.test(name)
        ? /^-[a-zA-Z]*[eE]$|^-r$/
        : undefined;
  if (!flags) return undefined;
  const at = args.findIndex((a) => flags.test(a));
  return at >= 0 ? args[at + 1] : undefined;
}
