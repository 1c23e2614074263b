// The permission policy: one synchronous decision per tool call — allow, ask or deny, with the
// reason in plain words — from user rules, workspace rules, the default mode, and built-in
// protections no rule can lift. Rules are compiled once into a Policy; decide() is pure and fast
// (microseconds: a command is parsed by our own small shell parser, see shell/parse.ts).
//
// Precedence: deny > ask > allow > default. A deny rule always denies. Protected paths, writes
// outside the workspace and commands that cannot be judged ask, even when a rule or the mode
// would allow. Reads of keys, credentials and /proc, /sys, /dev are refused outright.
import { globSource } from '../../paths/globs';
import {
  deniedReadRoots,
  isAbsolutePath,
  isUnder,
  normalizePath,
  PROTECTED_NAMES,
  secretFileOf,
  showPath,
  type PathFact,
} from '../paths';
import { analyzeCommand, type CommandPiece, type CommandWrite } from '../shell/analyse';
import { argumentText, type ToolFacts } from '../tool-facts';
import type { Decision, PermissionCall } from '../types';
import { NO_RULES, type Policy, type ToolRules } from './compile';
import { editRuleHolding, redirectAsk } from './redirect-edits';
import type { CompiledRule } from './rules';
import { secretFileCommandAsk, secretFileRead } from './secret-file-lift';
import { quote, result, ruleDecision, where } from './wording';

// ---------------------------------------------------------------------------------------------
// Paths

function inWorkspace(policy: Policy, p: string): boolean {
  return policy.workspaceFolders.some((f) => isUnder(p, f));
}

export function inWriteRoots(policy: Policy, p: string): boolean {
  return inWorkspace(policy, p) || policy.extraWriteRoots.some((f) => isUnder(p, f));
}

/**
 * The real paths a file tool acts on: the caller's resolved paths, else the arguments its
 * declaration names, resolved lexically. A folder tool without a path works on the workspace root.
 */
export function targetPaths(call: PermissionCall, facts: ToolFacts, policy: Policy): string[] | { error: string } {
  let given: ReadonlyArray<string | undefined>;
  try {
    given = facts.permission.paths?.(call.input ?? {}) ?? [];
  } catch {
    return { error: 'its arguments do not name the paths it works on' };
  }
  if (given.length === 0) given = [undefined];
  const out: string[] = [];
  for (const [k, g] of given.entries()) {
    const real = call.realPaths?.[k] ?? (k === 0 ? call.realPath : undefined);
    if (real) {
      out.push(normalizePath(real));
      continue;
    }
    if (g === undefined && facts.permission.folder) {
      const root = policy.workspaceFolders[0];
      if (!root) return { error: 'no workspace folder is open' };
      out.push(root);
      continue;
    }
    if (typeof g !== 'string' || g.trim() === '') return { error: 'the call names no path' };
    const p = g.trim();
    if (isAbsolutePath(p)) {
      out.push(normalizePath(p));
      continue;
    }
    const root = policy.workspaceFolders[0];
    if (!root) return { error: `${p} is relative and no workspace folder is open` };
    out.push(normalizePath(`${root}/${p}`));
  }
  return out;
}

/** The strictest answer over every path the call touches (a deny first, then an ask). */
function decidePaths(call: PermissionCall, facts: ToolFacts, policy: Policy, rules: ToolRules): Decision {
  const targets = targetPaths(call, facts, policy);
  if (!Array.isArray(targets)) return result('ask', 'parse', `Sextant cannot tell what it touches: ${targets.error}`);
  const decisions = targets.map((p) => decidePath(p, facts, policy, rules));
  return decisions.find((d) => d.decision === 'deny') ?? decisions.find((d) => d.decision === 'ask') ?? decisions[0];
}

function decidePath(p: string, facts: ToolFacts, policy: Policy, rules: ToolRules): Decision {
  const candidates = facts.permission.folder ? [p, `${p}/`] : [p];
  const matches = (r: CompiledRule) => candidates.some((c) => r.test(c));
  const shown = showPath(p, policy.home);
  const what = quote(shown);

  const deny = rules.deny.find(matches);
  if (deny) return ruleDecision('deny', deny, what);

  if (facts.kind === 'read') {
    const refused = policy.deniedReads.find((f) => candidates.some((c) => f.test(c)));
    if (refused) return result('deny', 'confinement', refused.reason);
    // A .env file's read asks under every mode and broad rule (secret-file-lift.ts).
    // (A search of a folder leaves the .env files in it out itself: grep.ts.)
    const secretFile = secretFileOf(p);
    if (secretFile) return secretFileRead(secretFile, rules, matches, what);
    if (facts.permission.folder) {
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
  if (policy.defaultMode === 'acceptEdits' || policy.defaultMode === 'allow') {
    const place = inWorkspace(policy, p) ? 'the workspace' : 'the extra write roots';
    return result('allow', 'default', `defaultMode ${policy.defaultMode} lets edits inside ${place} run`);
  }
  return result('ask', 'default', 'edits ask unless a rule or defaultMode allows them');
}

// ---------------------------------------------------------------------------------------------
// Commands

/** The protected fact a command's write would touch, if any (a pattern counts if it could name one). */
export function protectedWrite(policy: Policy, w: CommandWrite): PathFact | undefined {
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

export function writeOutside(policy: Policy, w: CommandWrite): boolean {
  if (w.glob?.split('/').includes('..')) return true;
  return !inWriteRoots(policy, w.path);
}

function decideCommand(call: PermissionCall, facts: ToolFacts, policy: Policy, rules: ToolRules): Decision {
  const command = subjectText(call, facts);
  if (typeof command !== 'string' || command.trim() === '')
    return result('ask', 'parse', 'the call has no command to judge');
  const a = analyzeCommand(command, { home: policy.home, cwd: policy.workspaceFolders[0] });
  const matchesAny = (r: CompiledRule, texts: string[]) => texts.some((t) => r.test(t));

  for (const piece of a.pieces) {
    const deny = rules.deny.find((r) => matchesAny(r, piece.denyTexts));
    if (deny) return ruleDecision('deny', deny, quote(piece.text));
  }
  // A word bash only knows at run time (`git $x`, `git {push,}`, `git pus?`) may turn the piece into
  // one a deny or ask rule names: that cannot be allowed unasked, by a rule, a mode or the box.
  const mightMeet = (list: CompiledRule[]) => {
    for (const piece of a.pieces) {
      const r = piece.denyShapes && list.find((x) => piece.denyShapes?.some((s) => x.mayMatch?.(s)));
      if (r) return { piece, r };
    }
    return undefined;
  };
  const mayDeny = mightMeet(rules.deny) ?? mightMeet(rules.ask);
  if (mayDeny)
    return {
      decision: 'ask',
      source: 'rule',
      rule: mayDeny.r.text,
      reason:
        `${quote(mayDeny.piece.shown)} holds words only known when bash runs it, so it may be what ` +
        `${mayDeny.r.text} in ${where(mayDeny.r)} ${mayDeny.r.list === 'deny' ? 'denies' : 'asks for'}`,
    };
  if (policy.commandShell === 'powershell')
    return result(
      'ask',
      'parse',
      'commands run in PowerShell here (Git Bash was not found), which Sextant cannot judge; every command asks',
    );
  for (const w of a.writes) {
    const prot = protectedWrite(policy, w);
    if (prot) return result('ask', 'protected', `${w.by} to ${w.shown}: ${prot.reason}`);
  }
  const protectedCode = a.findings.find((f) => f.kind === 'protected');
  if (protectedCode) return result('ask', 'protected', protectedCode.reason);
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
  // A command naming a .env file asks, whatever the mode or a broad rule (`bash(cat *)`) says.
  const secretAsk = secretFileCommandAsk(a, rules);
  if (secretAsk) return secretAsk;
  // A redirection is an edit of the file it writes: edit rules judge it too (redirect-edits.ts).
  const heldEdit = editRuleHolding(policy, a.writes);
  if (heldEdit) return heldEdit;

  const used: CompiledRule[] = [];
  const unmatched: CommandPiece[] = [];
  let needsExact: { piece: CommandPiece; rule: CompiledRule } | undefined;
  for (const piece of a.pieces) {
    if (piece.transparent) continue;
    let covering: CompiledRule | undefined;
    for (const r of rules.allow) {
      if (!matchesAny(r, piece.allowTexts)) continue;
      if (piece.openArgs && !r.wildcard) continue;
      // An exact rule names literal text; an unquoted `*` or `{a,b}` is expanded by bash into other words.
      if (piece.globbed && !r.wildcard) continue;
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
  if (used.length) return redirectAsk(policy, a.writes) ?? allowedBy(used);
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

function decideUrl(call: PermissionCall, facts: ToolFacts, policy: Policy, rules: ToolRules): Decision {
  const raw = subjectText(call, facts);
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

/** The text a command, URL or text tool's rules match, as its declaration names it ('' if it cannot). */
export function subjectText(call: PermissionCall, facts: ToolFacts): string | undefined {
  try {
    const t = facts.permission.text?.(call.input ?? {});
    return typeof t === 'string' ? t : undefined;
  } catch {
    return undefined;
  }
}

function decideOther(call: PermissionCall, facts: ToolFacts, policy: Policy, rules: ToolRules): Decision {
  const subject = subjectText(call, facts) ?? '';
  const deny = rules.deny.find((r) => r.test(subject));
  if (deny) return ruleDecision('deny', deny);
  const ask = rules.ask.find((r) => r.test(subject));
  if (ask) return ruleDecision('ask', ask);
  const allow = rules.allow.find((r) => r.test(subject));
  if (allow) return ruleDecision('allow', allow);
  if (facts.kind === 'read') return result('allow', 'default', `${call.tool} only reads; it runs without asking`);
  if (policy.defaultMode === 'allow') return result('allow', 'default', `defaultMode allow runs ${call.tool}`);
  return result('ask', 'default', `${call.tool} asks unless a rule allows it`);
}

/** The facts a call is judged by: the tool's declaration, else (a tool the policy was not given) the caller's kind. */
function factsFor(call: PermissionCall, policy: Policy): ToolFacts | undefined {
  if (Object.hasOwn(policy.tools, call.tool)) return policy.tools[call.tool];
  if (!call.kind) return undefined;
  return { name: call.tool, kind: call.kind, permission: { subject: 'text', text: argumentText } };
}

/**
 * A tool's rules; an MCP tool (`mcp__…`) also gets its server's (`mcp__<server>__*` keys end in `__`), a
 * language-model tool of another extension (`lm__…`) also gets `lm__*`'s (the key `lm__`).
 */
function rulesFor(policy: Policy, tool: string): ToolRules {
  if (!tool.startsWith('mcp__') && !tool.startsWith('lm__')) return policy.byTool.get(tool) ?? NO_RULES;
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
 * The policy's answer for one tool call. Pure and synchronous, and it never throws; for file tools
 * pass the real paths (`call.realPaths`), for bash the command is parsed here.
 */
export function decide(call: PermissionCall, policy: Policy): Decision {
  try {
    return decideCall(call, policy);
  } catch (e) {
    // A bug must not become a crash of the tool step, nor an allow: the call asks, and says why.
    return result('ask', 'parse', `Sextant could not judge this call (${e instanceof Error ? e.message : e})`);
  }
}

function decideCall(call: PermissionCall, policy: Policy): Decision {
  const facts = factsFor(call, policy);
  const rules = rulesFor(policy, call.tool);
  if (!facts) {
    if (policy.defaultMode === 'allow') return result('allow', 'default', `defaultMode allow runs ${call.tool}`);
    return result('ask', 'default', `Sextant knows nothing about the tool ${call.tool}, so it asks`);
  }
  switch (facts.permission.subject) {
    case 'path':
      return decidePaths(call, facts, policy, rules);
    case 'command':
      return decideCommand(call, facts, policy, rules);
    case 'url':
      return decideUrl(call, facts, policy, rules);
    default:
      return decideOther(call, facts, policy, rules);
  }
}
