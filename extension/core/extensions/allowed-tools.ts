// A slash command's `allowed-tools` (Claude Code's frontmatter): the tools it lists are pre-approved for
// the turn the command starts. Claude Code's rule syntax — `Bash(git add:*)` (prefix), `Bash(npm test)`
// (exact), `Read`, `Edit(src/**)`, `WebFetch(domain:example.com)`, `mcp__server__tool` — is mapped onto
// ours (`bash(git add)` + `bash(git add *)`, `read`, `edit(src/**)`, `web_fetch(domain:…)`).
//
// What a pre-approval can do, and what it cannot (see extension/core/extensions/README.md, "allowed-tools"):
// - It only turns a *default* ask into allow, when one of its rules allows the call under the same
//   parser and matchers as the user's own rules (every piece of a command chain must be covered). A deny
//   rule, the user's ask rules, protected paths, refused reads, confinement (writes outside the workspace,
//   the box's "run outside the sandbox" ask) and "cannot judge" all stand: pre-approval never widens past
//   the listed rules and never overrides a stricter decision.
// - It lasts one turn: the request the command starts.
// - A workspace command file is untrusted input. Its rules apply only in a trusted workspace, only after
//   the user approved that file once — bound to a hash of the whole file, so any edit asks again — and
//   rules that would cover a whole writing or executing tool (`Bash`, `Bash(*)`, `Edit`, `Write(**)`)
//   are dropped outright. The user's own command files (~/.claude/commands, ~/.sextant/commands) apply as
//   written, like the user's settings.
import { createHash } from 'node:crypto';
import { createPolicy, decide, type Policy } from '../permissions';
import type { Decision, PermissionCall } from '../permissions/types';

export interface PreApproval {
  /** Our rules, already mapped (`bash(git add *)`). */
  rules: string[];
  /** Where they come from, for the card's reason: `/commit (.claude/commands/commit.md)`. */
  source: string;
}

/** Claude Code's tool names → ours (a group name where theirs covers several tools). */
const TOOL_NAMES: Record<string, string> = {
  bash: 'bash',
  read: 'read',
  edit: 'edit',
  multiedit: 'edit',
  write: 'edit',
  notebookedit: 'notebook_edit',
  notebookread: 'read',
  glob: 'glob',
  grep: 'grep',
  ls: 'ls',
  webfetch: 'web_fetch',
  websearch: 'web_search',
  todowrite: 'todo_write',
};

/** Tools a blanket rule must not cover from a workspace file: they write or run things. */
const POWERFUL = new Set(['bash', 'edit', 'notebook_edit', 'write_file', 'edit_file', 'multi_edit']);

export interface MappedRules {
  rules: string[];
  /** Entries left out, with why. */
  dropped: Array<{ entry: string; why: string }>;
}

/** Splits a frontmatter value the way Claude Code reads it: a list, or one string of comma-separated rules. */
export function splitAllowedTools(entries: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    let depth = 0;
    let cur = '';
    for (const ch of e) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (ch === ',' && depth === 0) {
        if (cur.trim()) out.push(cur.trim());
        cur = '';
      } else cur += ch;
    }
    if (cur.trim()) out.push(cur.trim());
  }
  return out;
}

/** Claude Code's rules → ours. `workspace`: drop the rules too broad for an untrusted file. */
export function mapAllowedTools(entries: readonly string[], opts: { workspace: boolean }): MappedRules {
  const rules: string[] = [];
  const dropped: MappedRules['dropped'] = [];
  for (const entry of splitAllowedTools(entries)) {
    const mapped = mapOne(entry);
    if ('why' in mapped) {
      dropped.push({ entry, why: mapped.why });
      continue;
    }
    if (opts.workspace && mapped.broad) {
      dropped.push({ entry, why: 'too broad for a workspace command file: it would cover every call of the tool' });
      continue;
    }
    for (const r of mapped.rules) if (!rules.includes(r)) rules.push(r);
  }
  return { rules, dropped };
}

function mapOne(entry: string): { rules: string[]; broad: boolean } | { why: string } {
  if (/^mcp__[A-Za-z0-9_-]+(__[A-Za-z0-9_*-]+)?$/.test(entry)) return { rules: [entry], broad: false };
  const m = /^([A-Za-z_]+)(?:\(([\s\S]*)\))?$/.exec(entry);
  if (!m) return { why: 'not Tool or Tool(pattern)' };
  const tool = TOOL_NAMES[m[1].toLowerCase()] ?? (Object.values(TOOL_NAMES).includes(m[1]) ? m[1] : undefined);
  if (!tool) return { why: `no tool here corresponds to ${m[1]}` };
  const pattern = m[2]?.trim();
  const powerful = POWERFUL.has(tool);
  if (pattern === undefined || pattern === '') return { rules: [tool], broad: powerful };
  if (tool === 'bash') {
    // `git add:*` is Claude Code's prefix form: the command itself and anything after a space.
    const prefix = /^(.*?):\*$/.exec(pattern);
    if (prefix) {
      const p = prefix[1].trim();
      if (!p) return { rules: [`bash(*)`], broad: true };
      return { rules: [`bash(${p})`, `bash(${p} *)`], broad: false };
    }
    return { rules: [`bash(${pattern})`], broad: /^[\s*]*$/.test(pattern) };
  }
  // Paths: Claude Code's `//abs` is an absolute path; `./x` and `x` are relative to the project.
  const path = pattern.startsWith('//') ? pattern.slice(1) : pattern.replace(/^\.\//, '');
  return { rules: [`${tool}(${path})`], broad: powerful && /^[\s*/]*$/.test(path) };
}

/** The hash a workspace command file's approval is bound to: the whole file (body and frontmatter). */
export function commandFileHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The pre-approval's rules compiled against the same folders, home and tool facts as the policy in force. */
export function compilePreApproval(base: Policy, pre: PreApproval): Policy {
  return createPolicy({
    user: { allow: pre.rules },
    workspaceFolders: base.workspaceFolders,
    home: base.home,
    extraWriteRoots: base.extraWriteRoots,
    commandShell: base.commandShell,
    tools: Object.values(base.tools),
  });
}

/**
 * The decision with the pre-approval applied: a default ask becomes allow when one of its rules allows the
 * call; every other decision (deny, a rule's ask, protected, confinement, cannot judge, allow) is kept.
 */
export function withPreApproval(decision: Decision, call: PermissionCall, pre: Policy, source: string): Decision {
  if (decision.decision !== 'ask' || decision.source !== 'default') return decision;
  const d = decide(call, pre);
  if (d.decision !== 'allow' || d.source !== 'rule' || !d.rule) return decision;
  return {
    decision: 'allow',
    source: 'rule',
    rule: d.rule,
    reason: `${d.rule} from ${source}'s allowed-tools allows it for this turn`,
  };
}
