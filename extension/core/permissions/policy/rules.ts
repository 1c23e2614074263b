// Permission rules — `Tool` or `Tool(pattern)` — parsed once into matchers. A malformed rule is
// reported (with what to write instead) and left out; parsing never throws.
import { absoluteGlob, escapeRegExp, expandHome, isAbsolutePath, normalizePath } from '../paths';
import { globSource } from '../../paths/globs';
import type { ToolFacts } from '../tool-facts';
import { mayMatch, ruleTokens } from './may-match';
import type { RuleList, RuleProblem, RuleSource } from '../types';

/** Names that stand for several tools: every path tool that writes (`edit`) or reads (`read`). */
export function toolGroups(tools: Readonly<Record<string, ToolFacts>>): Record<string, string[]> {
  const all = Object.values(tools).filter((t) => t.permission.subject === 'path');
  return {
    edit: all.filter((t) => t.kind === 'write').map((t) => t.name),
    read: all.filter((t) => t.kind === 'read').map((t) => t.name),
  };
}

export interface CompiledRule {
  /** The rule as written (trimmed). */
  text: string;
  list: RuleList;
  source: RuleSource;
  /** The tools it covers. */
  tools: ReadonlySet<string>;
  /** No pattern: the whole tool. */
  blanket: boolean;
  /** The pattern has a wildcard (an exact command rule does not). */
  wildcard: boolean;
  /** Matches the subject (a real absolute path, a command piece, a normalized URL, or text). */
  test(subject: string): boolean;
  /** Command rules: could it match some command of this shape (text with run-time words as open slots)? */
  mayMatch?(shape: string): boolean;
}

export interface RuleEnv {
  home: string;
  workspaceFolders: readonly string[];
  tools: Readonly<Record<string, ToolFacts>>;
  groups: Readonly<Record<string, string[]>>;
}

/** A letter, digit or `_`: a character that continues a word (`ls` → `lsof`, `status` → `statusx`). */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * `bash(npm test*)`: `*` is any text (spaces and slashes too); `\*` is a literal star and `\\` a
 * backslash; the rest is literal, runs of spaces as one.
 *
 * In an allow rule a trailing `*` right after a letter or digit ends the word there: `bash(ls*)` covers
 * `ls` and `ls -la`, not `lsof`; `bash(git status*)` not `git status-x` or `git statusx` (which run a
 * repository's git aliases). After a file name or path (a word with `.` or `/`: `bash(grep * .env*)`,
 * `bash(cat src/app*)`) the `*` stays a glob over the name. A deny or ask rule keeps the plain prefix:
 * catching more is the safe side.
 */
function commandMatcher(
  pattern: string,
  list: RuleList,
): {
  test: (s: string) => boolean;
  wildcard: boolean;
  mayMatch: (shape: string) => boolean;
} {
  const p = pattern.replace(/\s+/g, ' ').trim();
  const trailing = /(?<!\\)\*+$/.exec(p);
  // The word the `*` follows: a file name or path (`.env*`, `src/app*`) keeps `*` as a glob over the name.
  const lastWord = trailing ? (p.slice(0, trailing.index).split(' ').pop() ?? '') : '';
  const endsWord =
    list === 'allow' && trailing !== null && WORD_CHAR.test(p[trailing.index - 1] ?? '') && !/[./]/.test(lastWord);
  const body = endsWord && trailing ? p.slice(0, trailing.index) : p;
  let src = '';
  let wildcard = endsWord;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && (body[i + 1] === '*' || body[i + 1] === '\\')) src += escapeRegExp(body[++i]);
    else if (c === '*') {
      src += '.*';
      wildcard = true;
    } else src += escapeRegExp(c);
  }
  // Nothing more, or a space and the rest of the command: the next word, never more of this one.
  if (endsWord) src += '(?: .*)?';
  const re = new RegExp(`^${src}$`, 's');
  const tokens = ruleTokens(pattern);
  return { test: (s) => re.test(s), wildcard, mayMatch: (shape) => mayMatch(tokens, shape) };
}

/** Text patterns for other tools: `*` is any text. */
function textMatcher(pattern: string): { test: (s: string) => boolean; wildcard: boolean } {
  const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`, 's');
  return { test: (s) => re.test(s), wildcard: pattern.includes('*') };
}

/** `domain:example.com` (that host and its subdomains, http or https) or a URL glob. */
function urlMatcher(pattern: string): { test: (s: string) => boolean; wildcard: boolean } | string {
  if (pattern.startsWith('domain:')) {
    const host = pattern.slice(7).trim().toLowerCase().replace(/\.$/, '');
    if (!/^[a-z0-9.-]+$/.test(host)) return `"${host}" is not a host name (write domain:example.com)`;
    return {
      test: (s) => {
        const m = /^https?:\/\/([^/?#]+)/.exec(s);
        const h = m?.[1].replace(/:\d+$/, '');
        return h !== undefined && (h === host || h.endsWith(`.${host}`));
      },
      wildcard: true,
    };
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(pattern))
    return 'a URL pattern starts with a scheme (https://docs.example.com/*) or is domain:example.com';
  const re = new RegExp(`^${globSource(pattern)}$`, 'i');
  return { test: (s) => re.test(s), wildcard: /[*?[{]/.test(pattern) };
}

/**
 * A path glob against real absolute paths: `~/…` under home, `/…` absolute, anything else relative
 * to each workspace folder. `*` stays within a folder, `**` crosses folders, a trailing / means the
 * whole folder. Deny and ask rules match regardless of case (so `.SSH` on macOS is still caught).
 */
function pathMatcher(
  pattern: string,
  env: RuleEnv,
  list: RuleList,
): { test: (s: string) => boolean; wildcard: boolean } | string {
  // Backslashes escape glob characters; only a Windows drive path (C:\x) uses them as separators.
  let p = /^[A-Za-z]:\\/.test(pattern) ? pattern.replace(/\\/g, '/') : pattern;
  if (p.endsWith('/')) p += '**';
  const caseless = list !== 'allow';
  let regexes: RegExp[];
  if (p.startsWith('~')) {
    const abs = expandHome(p, env.home);
    if (abs === undefined) return '~user paths are not supported; write ~/… or an absolute path';
    regexes = [new RegExp(`^${escapeRegExp(normalizePath(env.home))}${globSource(abs.slice(env.home.length))}$`)];
  } else if (isAbsolutePath(p)) {
    regexes = [absoluteGlob(normalizePath(p), caseless)];
  } else {
    const rel = p.replace(/^(\.\/)+/, '');
    if (rel.split('/').includes('..')) return '.. is not supported in a relative pattern; write an absolute path';
    regexes = env.workspaceFolders.map(
      (f) => new RegExp(`^${escapeRegExp(normalizePath(f))}/${globSource(rel)}$`, caseless ? 'i' : ''),
    );
  }
  if (caseless) regexes = regexes.map((r) => (r.flags.includes('i') ? r : new RegExp(r.source, 'i')));
  return {
    test: (s) => regexes.some((r) => r.test(s)),
    wildcard: /[*?[{]/.test(p),
  };
}

const RULE = /^([A-Za-z_][\w-]*)\s*(?:\(([\s\S]*)\))?$/;

/**
 * MCP tools come and go with their servers, so their rules are taken without knowing the tool:
 * `mcp__<server>__<tool>` (that tool), `mcp__<server>__*` or `mcp__<server>` (every tool of the server).
 * Keys ending in `__` are prefixes (see `rulesFor` in policy.ts). Lower case, like every rule name.
 */
const MCP_RULE = /^mcp__[A-Za-z0-9_-]+?(?:__\*)?$/;
/**
 * VS Code's language-model tools (core/lm-tools) likewise: `lm__<tool>` (that tool) or `lm__*` (every
 * tool other extensions register).
 */
const LM_RULE = /^lm__(?:[A-Za-z0-9_-]+|\*)$/;

function mcpRuleTools(text: string): ReadonlySet<string> | undefined {
  if (LM_RULE.test(text)) return new Set([text === 'lm__*' ? 'lm__' : text.toLowerCase()]);
  if (!MCP_RULE.test(text)) return undefined;
  const name = text.toLowerCase();
  if (name.endsWith('__*')) return new Set([name.slice(0, -1)]);
  return new Set([name, `${name}__`]);
}

export function compileRule(
  raw: unknown,
  list: RuleList,
  source: RuleSource,
  env: RuleEnv,
): CompiledRule | RuleProblem {
  const problem = (message: string): RuleProblem => ({
    source,
    list,
    rule: typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? String(raw)),
    message,
  });
  if (typeof raw !== 'string') return problem('a rule is a string such as "bash(npm test*)" or "edit(src/**)"');
  const text = raw.trim();
  if (text === '') return problem('the rule is empty');
  const open = text.indexOf('(');
  if (open >= 0 && !text.endsWith(')')) return problem(`"${text}" opens a parenthesis it never closes`);
  if (open < 0 && text.includes(')')) return problem(`"${text}" closes a parenthesis it never opens`);
  const mcp = mcpRuleTools(text);
  if (mcp) return { text, list, source, tools: mcp, blanket: true, wildcard: true, test: () => true };
  const m = RULE.exec(text);
  if (!m) return problem(`"${text}" is not Tool or Tool(pattern), e.g. bash(npm test*) or edit(src/**)`);
  const name = m[1].toLowerCase();
  const names = Object.hasOwn(env.groups, name)
    ? env.groups[name]
    : Object.hasOwn(env.tools, name)
      ? [name]
      : undefined;
  if (!names) {
    const known = [...Object.keys(env.groups), ...Object.keys(env.tools)].join(', ');
    return problem(`there is no tool named "${m[1]}" (known: ${known})`);
  }
  const tools = new Set(names);
  if (m[2] === undefined) return { text, list, source, tools, blanket: true, wildcard: true, test: () => true };
  const pattern = m[2].trim();
  if (pattern === '')
    return problem(`"${text}" has an empty pattern: write ${m[1]} for every call, or put a pattern inside`);
  const subject = Object.hasOwn(env.groups, name) ? 'path' : env.tools[name].permission.subject;
  const matcher: { test: (s: string) => boolean; wildcard: boolean; mayMatch?: (shape: string) => boolean } | string =
    subject === 'path'
      ? pathMatcher(pattern, env, list)
      : subject === 'command'
        ? commandMatcher(pattern, list)
        : subject === 'url'
          ? urlMatcher(pattern)
          : textMatcher(pattern);
  if (typeof matcher === 'string') return problem(`"${text}": ${matcher}`);
  const rule: CompiledRule = {
    text,
    list,
    source,
    tools,
    blanket: false,
    wildcard: matcher.wildcard,
    test: matcher.test,
  };
  if (matcher.mayMatch) rule.mayMatch = matcher.mayMatch;
  return rule;
}

export function isProblem(r: CompiledRule | RuleProblem): r is RuleProblem {
  return 'message' in r;
}
