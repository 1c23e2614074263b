// The grant of one run: what the user approved ahead for it, and nothing more. Two sources:
// - an approved plan (protocol/plan-grant.ts): edits of exactly the files it names, runs of exactly the
//   commands it names;
// - an edit card's "Approve rest of turn for this file": later edits of that one file in the same run.
// It lives as long as the request it was made for (agent-turn.ts builds one per request), so Stop, the
// end of the run or a new message ends it.
//
// What a grant can do: turn the policy's *default* ask — "no rule covers it" — into allow. It never
// touches a deny, the user's or workspace's ask rules, protected paths, secret files, writes outside
// the workspace, commands the parser cannot judge, or the box's edge (command-gate.ts asks again for a
// grant when no box works, and a request to leave the box always asks). A granted command is judged by
// the same parser as a rule: `npm test` covers `npm test`, never `npm test; curl …` or `npm test > x`.
import type { PlanGrant } from '../../protocol';
import { isUnder, normalizePath, secretFileOf, showPath } from './paths';
import { createPolicy, type Policy } from './policy/compile';
import { decide, targetPaths } from './policy/decide';
import type { Decision, PermissionCall } from './types';

export class RunGrant {
  /** Real absolute paths approved for the rest of the run at an edit card. */
  private readonly turnFiles = new Set<string>();
  private compiled?: { base: Policy; commands: Policy };

  /** `plan`: the approved plan's grant, absent when the user approved it without one (or none was given). */
  constructor(readonly plan?: PlanGrant) {}

  /** "Approve rest of turn for this file": its later edits in this run do not ask. */
  grantFile(realPath: string): void {
    this.turnFiles.add(normalizePath(realPath));
  }

  /** Why a write to `p` needs no question, if this grant covers it. */
  coversFile(p: string, policy: Policy): 'plan' | 'turn' | undefined {
    if (this.turnFiles.has(p)) return 'turn';
    const root = policy.workspaceFolders[0];
    if (!root || !this.plan) return undefined;
    return this.plan.files.some((f) => normalizePath(`${root}/${f}`) === p) ? 'plan' : undefined;
  }

  /** The plan's commands as exact allow rules, compiled against the policy in force (again when it is rebuilt). */
  commandPolicy(base: Policy): Policy | undefined {
    if (!this.plan?.commands.length) return undefined;
    if (this.compiled?.base !== base)
      this.compiled = {
        base,
        commands: createPolicy({
          user: { allow: this.plan.commands.map((c) => `bash(${c})`) },
          workspaceFolders: base.workspaceFolders,
          home: base.home,
          extraWriteRoots: base.extraWriteRoots,
          commandShell: base.commandShell,
          tools: Object.values(base.tools),
        }),
      };
    return this.compiled.commands;
  }
}

/**
 * The policy's decision with the run's grant applied: only a default ask can become allow (source
 * `plan`, the grant's entry as its rule, for the card and the audit log); every other decision stands.
 */
export function withRunGrant(
  decision: Decision,
  call: PermissionCall,
  policy: Policy,
  grant: RunGrant | undefined,
): Decision {
  if (!grant || decision.decision !== 'ask' || decision.source !== 'default') return decision;
  const facts = Object.hasOwn(policy.tools, call.tool) ? policy.tools[call.tool] : undefined;
  if (!facts) return decision;
  if (facts.permission.subject === 'path' && facts.kind === 'write') return fileGrant(decision, call, policy, grant);
  if (facts.permission.subject === 'command') return commandGrant(decision, call, policy, grant);
  return decision;
}

function fileGrant(decision: Decision, call: PermissionCall, policy: Policy, grant: RunGrant): Decision {
  const facts = policy.tools[call.tool];
  const targets = targetPaths(call, facts, policy);
  if (!Array.isArray(targets) || !targets.length) return decision;
  const by = new Set<'plan' | 'turn'>();
  for (const p of targets) {
    // The floor again, per file: the policy reports only the first of several files' questions.
    if (!policy.workspaceFolders.some((f) => isUnder(p, f))) return decision;
    if (policy.protectedPaths.some((f) => f.test(p)) || secretFileOf(p)) return decision;
    const covered = grant.coversFile(p, policy);
    if (!covered) return decision;
    by.add(covered);
  }
  const shown = targets.map((p) => showPath(p, policy.home)).join(', ');
  const plan = by.has('plan');
  return {
    decision: 'allow',
    source: 'plan',
    rule: `${plan ? 'plan grant' : 'approved for this turn'}: edit ${shown}`,
    reason: plan
      ? `the approved plan names ${shown} for edits in this run`
      : `you approved edits of ${shown} for the rest of this turn`,
  };
}

function commandGrant(decision: Decision, call: PermissionCall, policy: Policy, grant: RunGrant): Decision {
  const granted = grant.commandPolicy(policy);
  if (!granted) return decision;
  // The same parser and matchers as the user's own rules: every piece of a chain must be covered.
  const d = decide(call, granted);
  if (d.decision !== 'allow' || d.source !== 'rule' || !d.rule) return decision;
  return {
    decision: 'allow',
    source: 'plan',
    rule: `plan grant: ${d.rule}`,
    reason: `the approved plan names this command for this run (${d.rule})`,
  };
}
