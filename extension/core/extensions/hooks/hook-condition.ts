// A hook's `if` (Claude Code 2.1.85+): a permission rule — `Bash(git status*)`, `Edit(src/**)` — that
// scopes a hook to some calls of the tools its matcher names. It is read with the same mapping as a
// command's `allowed-tools` (Claude Code's rules → ours) and judged by the permission policy's own
// parser and matchers, against the folders and tool facts of the policy in force.
//
// Which way it fails matters, because a hook's effect is only known once it ran:
// - The hook RUNS when some part of the call may match (any piece of a command chain, a word only bash
//   knows at run time, a command that cannot be parsed): a guard meant for `git push` still sees
//   `ls && git push`, and a guard is never dropped because its `if` could not be read.
// - Its ALLOW counts only when the rule covers the whole call (every piece of a chain), as an allow rule
//   would: a hook that approves `git status` does not approve `git status && git push --force`, nor
//   anything when its `if` cannot be read or judged.
import { mapAllowedTools } from '../allowed-tools';
import { createPolicy, decide, type Policy } from '../../permissions';
import type { PermissionCall } from '../../permissions/types';

export type ConditionParse = { ok: true; rules: string[] } | { ok: false; problem: string };

/** Claude Code's `if` → our rules; a problem says why it cannot be read. */
export function parseHookCondition(text: string): ConditionParse {
  const mapped = mapAllowedTools([text], { workspace: false });
  if (mapped.dropped.length || !mapped.rules.length) {
    const why = mapped.dropped.map((d) => d.why).join('; ') || 'it names no rule';
    return { ok: false, problem: `its "if" ${JSON.stringify(text)} cannot be read (${why})` };
  }
  return { ok: true, rules: mapped.rules };
}

/**
 * How a parsed condition meets one call: `all` (its rules cover every part, as an allow rule would),
 * `some` (some part matches or may match), `none`.
 */
export type ConditionMatch = 'all' | 'some' | 'none';

export class HookConditions {
  private compiled = new WeakMap<Policy, Map<string, { allow: Policy; deny: Policy }>>();

  private policies(base: Policy, rules: string[]): { allow: Policy; deny: Policy } {
    let byRules = this.compiled.get(base);
    if (!byRules) {
      byRules = new Map();
      this.compiled.set(base, byRules);
    }
    const key = rules.join('\n');
    let p = byRules.get(key);
    if (!p) {
      const common = {
        workspaceFolders: base.workspaceFolders,
        home: base.home,
        extraWriteRoots: base.extraWriteRoots,
        commandShell: base.commandShell,
        tools: Object.values(base.tools),
      };
      p = {
        allow: createPolicy({ ...common, user: { allow: rules } }),
        deny: createPolicy({ ...common, user: { deny: rules } }),
      };
      byRules.set(key, p);
    }
    return p;
  }

  match(rules: string[], call: PermissionCall, base: Policy): ConditionMatch {
    const { allow, deny } = this.policies(base, rules);
    const covered = decide(call, allow);
    if (covered.decision === 'allow' && covered.source === 'rule') return 'all';
    const touched = decide(call, deny);
    // A deny rule met (or maybe met, through a word only known at run time), or a call the parser
    // cannot judge: the guard must run.
    if (touched.decision === 'deny') return 'some';
    if (touched.decision === 'ask' && (touched.source === 'rule' || touched.source === 'parse')) return 'some';
    return 'none';
  }
}
