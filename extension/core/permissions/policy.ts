// The permission policy: one synchronous decision per tool call — allow, ask or deny, with the
// reason in plain words — from user rules, workspace rules, the default mode, and built-in
// protections no rule can lift. Rules are compiled once into a Policy; decide() is pure and fast
// (microseconds: a command is parsed by our own small shell parser, see shell.ts).
//
// Precedence: deny > ask > allow > default. A deny rule always denies. Protected paths, writes
// outside the workspace and commands that cannot be judged ask, even when a rule or the mode
// would allow. Reads of keys, credentials and /proc, /sys, /dev are refused outright.
import { posix } from 'node:path';
import { globSource } from '../tools/util/globs';
import { analyzeCommand, type CommandPiece, type CommandWrite } from './command';
import {
  deniedReadRoots,
  deniedReads,
  expandHome,
  isAbsolutePath,
  isUnder,
  normalizePath,
  PROTECTED_NAMES,
  protectedPaths,
  showPath,
  type PathFact,
} from './paths';
import {
  compileRule,
  GROUPS,
  isProblem,
  KNOWN_TOOLS,
  PATH_READ_TOOLS,
  WRITE_TOOLS,
  type CompiledRule,
  type ToolInfo,
} from './rules';
import type { Decision, DefaultMode, PermissionCall, PolicyConfig, RuleList, RuleProblem, RuleSource } from './types';

interface ToolRules {
  deny: CompiledRule[];
  ask: CompiledRule[];
  allow: CompiledRule[];
}

/** Compiled settings and facts. Build with createPolicy; rebuild when settings or folders change. */
export interface Policy {
  readonly defaultMode: DefaultMode;
  /** Settings that were left out, with why (malformed rules, a workspace allow list, …). */
  readonly problems: readonly RuleProblem[];
  readonly workspaceFolders: readonly string[];
  readonly extraWriteRoots: readonly string[];
  readonly home: string;
  /** Every rule in force. */
  readonly rules: readonly CompiledRule[];
  readonly tools: Readonly<Record<string, ToolInfo>>;
  /** Rules by tool name. */
  readonly byTool: ReadonlyMap<string, ToolRules>;
  readonly protectedPaths: readonly PathFact[];
  readonly deniedReads: readonly PathFact[];
}

const MODES: DefaultMode[] = ['ask', 'acceptEdits', 'allow'];
const NO_RULES: ToolRules = { deny: [], ask: [], allow: [] };
const DIRECTORY_TOOLS = new Set(['glob', 'grep', 'ls']);

export function createPolicy(config: PolicyConfig): Policy {
  const problems: RuleProblem[] = [];
  const home = normalizePath(config.home || '/');
  const workspaceFolders = config.workspaceFolders.map(normalizePath);
  const tools: Record<string, ToolInfo> = { ...KNOWN_TOOLS };
  for (const [name, kind] of Object.entries(config.tools ?? {}))
    if (!Object.hasOwn(tools, name) && !Object.hasOwn(GROUPS, name)) tools[name] = { kind, subject: 'text' };

  const extraWriteRoots: string[] = [];
  for (const raw of config.extraWriteRoots ?? []) {
    const p = typeof raw === 'string' ? expandHome(raw.trim(), home) : undefined;
    if (p && isAbsolutePath(p)) extraWriteRoots.push(normalizePath(p));
    else
      problems.push({
        source: 'user',
        list: 'extraWriteRoots',
        rule: String(raw),
        message: 'an extra write root must be an absolute folder (or ~/…); it is ignored',
      });
  }

  let defaultMode: DefaultMode = 'ask';
  const userMode = config.user?.defaultMode;
  if (userMode !== undefined) {
    if (MODES.includes(userMode as DefaultMode)) defaultMode = userMode as DefaultMode;
    else
      problems.push({
        source: 'user',
        list: 'defaultMode',
        rule: String(userMode),
        message: `defaultMode is one of ${MODES.join(', ')}; using ask`,
      });
  }
  const wsMode = config.workspace?.defaultMode;
  if (wsMode !== undefined) {
    const k = MODES.indexOf(wsMode as DefaultMode);
    if (k >= 0 && k <= MODES.indexOf(defaultMode)) defaultMode = MODES[k];
    else
      problems.push({
        source: 'workspace',
        list: 'defaultMode',
        rule: String(wsMode),
        message:
          k < 0
            ? `defaultMode is one of ${MODES.join(', ')}; ignored`
            : 'a workspace may only make defaultMode stricter than your settings; ignored',
      });
  }

  const env = { home, workspaceFolders, tools };
  const rules: CompiledRule[] = [];
  const lists: RuleList[] = ['deny', 'ask', 'allow'];
  for (const source of ['user', 'workspace'] as RuleSource[]) {
    const settings = source === 'user' ? config.user : config.workspace;
    for (const list of lists) {
      const entries = settings?.[list];
      if (entries === undefined) continue;
      if (!Array.isArray(entries)) {
        problems.push({ source, list, rule: String(entries), message: `${list} must be a list of rules` });
        continue;
      }
      for (const raw of entries) {
        if (source === 'workspace' && list === 'allow') {
          problems.push({
            source,
            list,
            rule: String(raw),
            message:
              'ignored: a workspace (.sextant/settings.json) may only add ask and deny rules, so a cloned ' +
              'repository cannot grant itself permissions. Put allow rules in your user settings.',
          });
          continue;
        }
        const r = compileRule(raw, list, source, env);
        if (isProblem(r)) problems.push(r);
        else rules.push(r);
      }
    }
  }
  const byTool = new Map<string, ToolRules>();
  for (const r of rules) {
    for (const t of r.tools) {
      let entry = byTool.get(t);
      if (!entry) {
        entry = { deny: [], ask: [], allow: [] };
        byTool.set(t, entry);
      }
      entry[r.list].push(r);
    }
  }
  return {
    defaultMode,
    problems,
    workspaceFolders,
    extraWriteRoots,
    home,
    rules,
    tools,
    byTool,
    protectedPaths: protectedPaths(home),
    deniedReads: deniedReads(home),
  };
}

// ---------------------------------------------------------------------------------------------
// Wording

const where = (r: CompiledRule) => (r.source === 'user' ? 'your settings' : '.sextant/settings.json');
const quote = (s: string) => `\`${s.length > 80 ? `${s.slice(0, 77)}…` : s}\``;

function ruleDecision(decision: Decision['decision'], r: CompiledRule, what?: string): Decision {
  const verb = decision === 'allow' ? 'allows' : decision === 'deny' ? 'denies' : 'asks for';
  return {
    decision,
    reason: `${r.text} in ${where(r)} ${verb} ${what ?? 'it'}`,
    rule: r.text,
    source: 'rule',
  };
}

const result = (decision: Decision['decision'], source: Decision['source'], reason: string): Decision => ({
  decision,
  reason,
  source,
});

// ---------------------------------------------------------------------------------------------
// Paths

function inWorkspace(policy: Policy, p: string): boolean {
  return policy.workspaceFolders.some((f) => isUnder(p, f));
}

function inWriteRoots(policy: Policy, p: string): boolean {
  return inWorkspace(policy, p) || policy.extraWriteRoots.some((f) => isUnder(p, f));
}

/** The real path a file tool acts on: the caller's resolved path, else the argument resolved lexically. */
function targetPath(call: PermissionCall, policy: Policy): string | { error: string } {
  if (call.realPath) return normalizePath(call.realPath);
  const input = call.input ?? {};
  const given = input.file_path ?? input.notebook_path ?? input.path;
  if (given === undefined && DIRECTORY_TOOLS.has(call.tool)) {
    const root = policy.workspaceFolders[0];
    return root ?? { error: 'no workspace folder is open' };
  }
  if (typeof given !== 'string' || given.trim() === '') return { error: 'the call names no path' };
  const p = given.trim();
  if (isAbsolutePath(p)) return normalizePath(p);
  const root = policy.workspaceFolders[0];
  if (!root) return { error: `${p} is relative and no workspace folder is open` };
  return normalizePath(`${root}/${p}`);
}

function decidePath(call: PermissionCall, info: ToolInfo, policy: Policy, rules: ToolRules): Decision {
  const target = targetPath(call, policy);
  if (typeof target !== 'string') return result('ask', 'parse', `Sextant cannot tell what it touches: ${target.error}`);
  const p = target;
  const candidates = DIRECTORY_TOOLS.has(call.tool) ? [p, `${p}/`] : [p];
  const matches = (r: CompiledRule) => candidates.some((c) => r.test(c));
  const shown = showPath(p, policy.home);
  const what = quote(shown);

  const deny = rules.deny.find(matches);
  if (deny) return ruleDecision('deny', deny, what);

  if (info.kind === 'read') {
    const refused = policy.deniedReads.find((f) => candidates.some((c) => f.test(c)));
    if (refused) return result('deny', 'confinement', refused.reason);
    if (call.tool === 'grep') {
      const inside = deniedReadRoots(policy.home).find((r) => r !== p && isUnder(r, p));
      if (inside)
        return result(
          'ask',
          'confinement',
          `searching ${shown} would also read ${showPath(inside, policy.home)}, where secrets live`,
        );
    }
    const ask = rules.ask.find(matches);
    if (ask) return ruleDecision('ask', ask, what);
    const inside = inWriteRoots(policy, p);
    const allow = rules.allow.find((r) => matches(r) && (inside || !r.blanket));
    if (allow) return ruleDecision('allow', allow, what);
    if (inside) return result('allow', 'default', 'reads inside the workspace run without asking');
    if (policy.defaultMode === 'allow') return result('allow', 'default', 'defaultMode allow reads anywhere');
    return result('ask', 'confinement', `${shown} is outside the workspace folders; reads there ask`);
  }

  const prot = policy.protectedPaths.find((f) => f.test(p));
  if (prot) return result('ask', 'protected', prot.reason);
  const ask = rules.ask.find(matches);
  if (ask) return ruleDecision('ask', ask, what);
  const inside = inWriteRoots(policy, p);
  const allow = rules.allow.find((r) => matches(r) && (inside || !r.blanket));
  if (allow) return ruleDecision('allow', allow, what);
  if (!inside)
    return result(
      'ask',
      'confinement',
      `${shown} is outside the workspace folders${policy.extraWriteRoots.length ? ' and extra write roots' : ''}; ` +
        'writes there ask',
    );
  if (policy.defaultMode !== 'ask') {
    const place = inWorkspace(policy, p) ? 'the workspace' : 'the extra write roots';
    return result('allow', 'default', `defaultMode ${policy.defaultMode} lets edits inside ${place} run`);
  }
  return result('ask', 'default', 'edits ask unless a rule or defaultMode allows them');
}

// ---------------------------------------------------------------------------------------------
// Commands

/** The protected fact a command's write would touch, if any (a pattern counts if it could name one). */
function protectedWrite(policy: Policy, w: CommandWrite): PathFact | undefined {
  if (!w.glob) return policy.protectedPaths.find((f) => f.test(w.path));
  const inFolder = policy.protectedPaths.find((f) => f.test(`${w.path}/x`));
  if (inFolder) return inFolder;
  for (const seg of w.glob.split('/')) {
    const re = new RegExp(`^${globSource(seg)}$`, 'i');
    const name = PROTECTED_NAMES.find((n) => re.test(n));
    if (name) return policy.protectedPaths.find((f) => f.test(`${w.path}/${name}`));
  }
  return undefined;
}

function writeOutside(policy: Policy, w: CommandWrite): boolean {
  if (w.glob?.split('/').includes('..')) return true;
  return !inWriteRoots(policy, w.path);
}

function decideCommand(call: PermissionCall, policy: Policy, rules: ToolRules): Decision {
  const command = call.input?.command;
  if (typeof command !== 'string' || command.trim() === '')
    return result('ask', 'parse', 'the call has no command to judge');
  const a = analyzeCommand(command, { home: policy.home, cwd: policy.workspaceFolders[0] });
  const matchesAny = (r: CompiledRule, texts: string[]) => texts.some((t) => r.test(t));

  for (const piece of a.pieces) {
    const deny = rules.deny.find((r) => matchesAny(r, piece.denyTexts));
    if (deny) return ruleDecision('deny', deny, quote(piece.text));
  }
  for (const w of a.writes) {
    const prot = protectedWrite(policy, w);
    if (prot) return result('ask', 'protected', `${w.by} to ${w.shown}: ${prot.reason}`);
  }
  const confined = a.findings.find((f) => f.kind === 'confinement');
  if (confined) return result('ask', 'confinement', confined.reason);
  const outside = a.writes.find((w) => writeOutside(policy, w));
  if (outside)
    return result(
      'ask',
      'confinement',
      `${outside.by} writes to ${showPath(outside.path, policy.home)}${outside.glob ? `/${outside.glob}` : ''}, ` +
        'outside the workspace folders; writes there ask',
    );
  const unsure = a.findings.find((f) => f.kind === 'parse');
  if (unsure) return result('ask', 'parse', unsure.reason);
  for (const piece of a.pieces) {
    const ask = rules.ask.find((r) => matchesAny(r, piece.denyTexts));
    if (ask) return ruleDecision('ask', ask, quote(piece.text));
  }

  const used: CompiledRule[] = [];
  const unmatched: CommandPiece[] = [];
  let needsExact: { piece: CommandPiece; rule: CompiledRule } | undefined;
  for (const piece of a.pieces) {
    if (piece.transparent) continue;
    let covering: CompiledRule | undefined;
    for (const r of rules.allow) {
      if (!matchesAny(r, piece.allowTexts)) continue;
      if (piece.openArgs && !r.wildcard) continue;
      if (piece.exactOnly && r.wildcard) {
        needsExact ??= { piece, rule: r };
        continue;
      }
      covering = r;
      break;
    }
    if (covering) {
      if (!used.includes(covering)) used.push(covering);
    } else if (!piece.inert) unmatched.push(piece);
  }
  if (policy.defaultMode === 'allow') {
    if (unmatched.length === 0 && used.length) return allowedBy(used);
    return result('allow', 'default', 'defaultMode allow runs commands without asking');
  }
  if (needsExact && unmatched.includes(needsExact.piece))
    return result(
      'ask',
      'parse',
      `${needsExact.piece.exactOnly}: ${needsExact.rule.text} allows ${quote(needsExact.piece.shown)} ` +
        'only as an exact rule',
    );
  if (unmatched.length) {
    const more =
      unmatched.length > 1 ? ` (and ${unmatched.length - 1} more part${unmatched.length > 2 ? 's' : ''})` : '';
    return result('ask', 'default', `no rule allows ${quote(unmatched[0].shown)}${more}`);
  }
  if (used.length) return allowedBy(used);
  return result('ask', 'default', 'no rule allows this command');
}

function allowedBy(used: CompiledRule[]): Decision {
  if (used.length === 1) return ruleDecision('allow', used[0]);
  const names = used.map((r) => r.text);
  const list = `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  const places = [...new Set(used.map(where))].join(' and ');
  return {
    decision: 'allow',
    reason: `${list} in ${places} allow every part of it`,
    rule: names.join(', '),
    source: 'rule',
  };
}

// ---------------------------------------------------------------------------------------------
// URLs and other tools

/** Cloud instance metadata endpoints: a fetch there can read the machine's credentials. */
const METADATA_HOSTS = new Set(['169.254.169.254', '[fd00:ec2::254]', 'metadata.google.internal', '100.100.100.200']);

function decideUrl(call: PermissionCall, policy: Policy, rules: ToolRules): Decision {
  const raw = call.input?.url;
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    return result('ask', 'parse', `${quote(String(raw))} is not a URL Sextant can read`);
  }
  const href = url.href;
  const deny = rules.deny.find((r) => r.test(href));
  if (deny) return ruleDecision('deny', deny, quote(href));
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return result('ask', 'confinement', `${url.protocol} URLs always ask; only http and https are fetched freely`);
  if (METADATA_HOSTS.has(url.hostname))
    return result('ask', 'confinement', `${url.hostname} is a cloud metadata address, which hands out credentials`);
  const ask = rules.ask.find((r) => r.test(href));
  if (ask) return ruleDecision('ask', ask, quote(href));
  if (url.username || url.password) return result('ask', 'parse', 'the URL carries a user name or password');
  const allow = rules.allow.find((r) => r.test(href));
  if (allow) return ruleDecision('allow', allow, quote(href));
  if (policy.defaultMode === 'allow') return result('allow', 'default', 'defaultMode allow fetches without asking');
  return result('ask', 'default', `fetching ${url.host} asks unless a rule allows it`);
}

function textSubject(input: Readonly<Record<string, unknown>>): string {
  for (const k of ['query', 'shell_id', 'bash_id', 'url', 'command', 'path']) {
    if (typeof input[k] === 'string') return input[k] as string;
  }
  return '';
}

function decideOther(call: PermissionCall, info: ToolInfo, policy: Policy, rules: ToolRules): Decision {
  const subject = textSubject(call.input ?? {});
  const deny = rules.deny.find((r) => r.test(subject));
  if (deny) return ruleDecision('deny', deny);
  const ask = rules.ask.find((r) => r.test(subject));
  if (ask) return ruleDecision('ask', ask);
  const allow = rules.allow.find((r) => r.test(subject));
  if (allow) return ruleDecision('allow', allow);
  if (info.kind === 'read') return result('allow', 'default', `${call.tool} only reads; it runs without asking`);
  if (policy.defaultMode === 'allow') return result('allow', 'default', `defaultMode allow runs ${call.tool}`);
  return result('ask', 'default', `${call.tool} asks unless a rule allows it`);
}

/** A tool's rules; an MCP tool (`mcp__…`) also gets its server's (`mcp__<server>__*` keys end in `__`). */
function rulesFor(policy: Policy, tool: string): ToolRules {
  if (!tool.startsWith('mcp__')) return policy.byTool.get(tool) ?? NO_RULES;
  const name = tool.toLowerCase();
  const merged: ToolRules = { deny: [], ask: [], allow: [] };
  for (const [key, r] of policy.byTool) {
    if (key !== name && !(key.endsWith('__') && name.startsWith(key))) continue;
    merged.deny.push(...r.deny);
    merged.ask.push(...r.ask);
    merged.allow.push(...r.allow);
  }
  return merged;
}

/**
 * The policy's answer for one tool call. Pure and synchronous; for file tools pass the real path
 * (`call.realPath`), for bash the command is parsed here.
 */
export function decide(call: PermissionCall, policy: Policy): Decision {
  const known = Object.hasOwn(policy.tools, call.tool) ? policy.tools[call.tool] : undefined;
  const info = known ?? (call.kind ? { kind: call.kind, subject: 'text' as const } : undefined);
  const rules = rulesFor(policy, call.tool);
  if (!info) {
    if (policy.defaultMode === 'allow') return result('allow', 'default', `defaultMode allow runs ${call.tool}`);
    return result('ask', 'default', `Sextant knows nothing about the tool ${call.tool}, so it asks`);
  }
  switch (info.subject) {
    case 'path':
      return decidePath(call, info, policy, rules);
    case 'command':
      return decideCommand(call, policy, rules);
    case 'url':
      return decideUrl(call, policy, rules);
    default:
      return decideOther(call, info, policy, rules);
  }
}

// ---------------------------------------------------------------------------------------------
// "Always allow" suggestions

/** Programs whose "always allow" covers only the exact command, never its family. */
const EXACT_ONLY_PROGRAMS = new Set([
  'rm',
  'rmdir',
  'mv',
  'dd',
  'chmod',
  'chown',
  'chgrp',
  'shred',
  'truncate',
  'curl',
  'wget',
  'kill',
  'pkill',
  'killall',
  'ssh',
  'scp',
  'rsync',
  'sh',
  'bash',
  'zsh',
  'eval',
  'source',
  '.',
]);

/** Subcommands that run what comes next (`npm run <script>`): the suggestion names that too. */
const RUNNERS = new RegExp(
  '^(npm (run|run-script|exec|x)|pnpm (run|exec|dlx)|yarn (run|exec|dlx)|bun (run|x)|python[0-9.]* -m|' +
    'uv run|poetry run|pipenv run|bundle exec|go run|docker (run|exec)|kubectl exec)$',
);

/** Escapes glob characters in a literal path segment. */
const globLiteral = (s: string) => s.replace(/[*?[\]{}\\]/g, '\\$&');

/**
 * A rule for the approval card's "Always allow", or undefined when none would be safe or useful:
 * `bash(npm test*)` for `npm test -- --watch=false` (program and first argument — never a blanket
 * `bash`), the folder of an edited file (`edit(src/utils/**)`), a read's folder outside the
 * workspace, a fetched URL's domain. Undefined for chained or complex commands, protected paths and
 * writes outside the workspace.
 */
export function suggestRule(call: PermissionCall, policy: Policy): string | undefined {
  const known = Object.hasOwn(policy.tools, call.tool) ? policy.tools[call.tool] : undefined;
  // An MCP tool: "Always allow" names that one tool (mcp__<server>__<tool>).
  const info = known ?? (call.tool.startsWith('mcp__') && call.kind ? { kind: call.kind, subject: 'text' } : undefined);
  if (!info) return undefined;
  if (info.subject === 'command') return suggestCommand(call, policy);
  if (info.subject === 'url') {
    try {
      const host = new URL(String(call.input?.url)).hostname;
      return host ? `${call.tool}(domain:${host})` : undefined;
    } catch {
      return undefined;
    }
  }
  if (info.subject === 'path') {
    const target = targetPath(call, policy);
    if (typeof target !== 'string') return undefined;
    if (decide(call, policy).decision === 'deny') return undefined;
    if (info.kind === 'write') {
      if (policy.protectedPaths.some((f) => f.test(target))) return undefined;
      const folder = policy.workspaceFolders
        .filter((f) => isUnder(target, f) && target !== f)
        .sort((x, y) => y.length - x.length)[0];
      if (!folder) return undefined;
      const rel = target.slice(folder === '/' ? 1 : folder.length + 1);
      const dir = posix.dirname(rel);
      const group = WRITE_TOOLS.includes(call.tool) ? 'edit' : call.tool;
      return dir === '.'
        ? `${group}(${globLiteral(rel)})`
        : `${group}(${dir.split('/').map(globLiteral).join('/')}/**)`;
    }
    if (inWriteRoots(policy, target)) return undefined;
    const dir = DIRECTORY_TOOLS.has(call.tool) ? target : posix.dirname(target);
    if (dir === '/' || dir === policy.home || posix.dirname(dir) === '/') return undefined;
    const group = PATH_READ_TOOLS.includes(call.tool) ? 'read' : call.tool;
    return `${group}(${showPath(dir, policy.home).split('/').map(globLiteral).join('/')}/**)`;
  }
  return info.kind === 'read' ? undefined : call.tool;
}

function suggestCommand(call: PermissionCall, policy: Policy): string | undefined {
  const command = call.input?.command;
  if (typeof command !== 'string') return undefined;
  const a = analyzeCommand(command, { home: policy.home, cwd: policy.workspaceFolders[0] });
  if (a.findings.length || a.pieces.some((p) => p.transparent)) return undefined;
  if (a.writes.some((w) => protectedWrite(policy, w) || writeOutside(policy, w))) return undefined;
  if (a.pieces.length !== 1) return undefined;
  const piece = a.pieces[0];
  if (piece.allowTexts[0] !== piece.text || piece.openArgs) return undefined;
  const [prog, first] = piece.argv;
  if (/[\s$`;&|<>()]/.test(prog + (first ?? ''))) return undefined;
  const exact = () => (/[\n*]/.test(piece.text) || piece.text.length > 200 ? undefined : `bash(${piece.text})`);
  if (piece.exactOnly) return exact();
  if (first === undefined) return `bash(${prog})`;
  const name = prog.slice(prog.lastIndexOf('/') + 1);
  if (EXACT_ONLY_PROGRAMS.has(name) || /^(-c|-e|--eval|-p|--print|-r|--require)$/.test(first)) return exact();
  const second = piece.argv[2];
  if (RUNNERS.test(`${name} ${first}`)) {
    if (second === undefined) return `bash(${prog} ${first})`;
    if (/[\s$`;&|<>()*]/.test(second)) return undefined;
    return `bash(${prog} ${first} ${second}*)`;
  }
  return `bash(${prog} ${first}*)`;
}
