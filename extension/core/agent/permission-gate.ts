// Asks the permission policy about one tool call, once, with its parsed arguments. The policy is
// pure; this is where the paths the tool's declaration names get their real paths (symbolic links
// resolved through the workspace port), so a link inside the workspace that points at ~/.ssh is
// judged as ~/.ssh.
import type { WorkspacePort } from '../ports';
import { decide, suggestRule, type Policy } from '../permissions';
import type { Decision } from '../permissions/types';
import type { ToolFacts } from '../permissions/tool-facts';
import type { ReviewNote, ToolKind } from '../../protocol';
import { realPathOf, resolvePath } from '../tools/util/paths';
import { compilePreApproval, type PreApproval, withPreApproval } from '../extensions/allowed-tools';
import { type RunGrant, withRunGrant } from '../permissions/run-grant';
import type { SessionWriteGuard } from '../sessions/session-writes';

/** What the loop needs from its host to judge calls. */
export interface PermissionGate {
  /** The policy in force now (the host rebuilds it when settings, the workspace file or folders change). */
  policy(): Policy;
  /** "Always allow": adds the rule to the user's settings, where the user can see and remove it. */
  rememberRule(rule: string): Promise<void>;
  /** A slash command's `allowed-tools` for this turn: may turn a default ask into allow (allowed-tools.ts). */
  preApproved?: { policy(): Policy; source: string };
  /** This run's grant: an approved plan's files and commands, edits approved for the rest of the turn. */
  runGrant?: RunGrant;
}

/** The gate of one turn that a command's `allowed-tools` pre-approves rules for. */
export function gateWithPreApproval(gate: PermissionGate, pre: PreApproval): PermissionGate {
  let compiled: { base: Policy; pre: Policy } | undefined;
  return {
    policy: () => gate.policy(),
    rememberRule: (rule) => gate.rememberRule(rule),
    ...(gate.runGrant ? { runGrant: gate.runGrant } : {}),
    preApproved: {
      source: pre.source,
      // Compiled against the policy in force, again whenever that is rebuilt (settings, folders).
      policy: () => {
        const base = gate.policy();
        if (compiled?.base !== base) compiled = { base, pre: compilePreApproval(base, pre) };
        return compiled.pre;
      },
    },
  };
}

export interface Judgement extends Decision {
  /** The narrow rule "Always allow" would add; absent when it may not be offered (protected paths, chains). */
  alwaysRule?: string;
  /** Auto mode: what the reviewer said (shown on the card, written in the audit log). */
  review?: ReviewNote;
}

/**
 * `writes`: the session's cross-session write guard (core/sessions/session-writes.ts) — a write of a file
 * another running session changed asks, even where a rule or the mode allows it.
 */
export async function judgeCall(
  gate: PermissionGate | undefined,
  call: { tool: string; kind: ToolKind; input: unknown },
  workspace: WorkspacePort,
  writes?: SessionWriteGuard,
): Promise<Judgement> {
  if (!gate) return withoutPolicy(call.kind);
  const input = isRecord(call.input) ? call.input : {};
  const policy = gate.policy();
  const realPaths = await targetRealPaths(policy.tools[call.tool], input, workspace);
  const request = { tool: call.tool, kind: call.kind, input, ...(realPaths ? { realPaths } : {}) };
  const judged = decide(request, policy);
  const preApproved = gate.preApproved
    ? withPreApproval(judged, request, gate.preApproved.policy(), gate.preApproved.source)
    : judged;
  // Where no rule covers the call: this run's grant may (run-grant.ts); it never lowers the floor.
  const decision = withRunGrant(preApproved, request, policy, gate.runGrant);
  const guarded = writes && call.kind === 'write' && realPaths ? writes.judge(decision, realPaths) : decision;
  // No "Always allow" for the guard's ask: a rule cannot settle another session's work in progress.
  if (guarded !== decision) return guarded;
  if (decision.decision !== 'ask') return decision;
  const alwaysRule = decision.source === 'protected' ? undefined : suggestRule(request, policy);
  return alwaysRule ? { ...decision, alwaysRule } : decision;
}

/** Hosts without a policy (unit tests of the loop): reads run, everything else asks. */
function withoutPolicy(kind: ToolKind): Judgement {
  return kind === 'read'
    ? { decision: 'allow', source: 'default', reason: 'reads run without asking' }
    : { decision: 'ask', source: 'default', reason: 'writes and commands ask' };
}

/** The real paths of the files a path tool's declaration names (undefined where one cannot be resolved). */
export async function targetRealPaths(
  facts: ToolFacts | undefined,
  input: Record<string, unknown>,
  workspace: WorkspacePort,
): Promise<Array<string | undefined> | undefined> {
  if (facts?.permission.subject !== 'path') return undefined;
  let given: ReadonlyArray<string | undefined>;
  try {
    given = facts.permission.paths?.(input) ?? [];
  } catch {
    return undefined;
  }
  return Promise.all(
    given.map(async (g) => {
      if (typeof g !== 'string' || !g.trim()) return undefined;
      try {
        return await realPathOf(workspace, await resolvePath(workspace, g));
      } catch {
        return undefined;
      }
    }),
  );
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
