// Asks the permission policy about one tool call, once, with its parsed arguments. The policy is
// pure; this is where the call's target path gets its real path (symbolic links resolved through
// the workspace port), so a link inside the workspace that points at ~/.ssh is judged as ~/.ssh.
import type { WorkspacePort } from '../ports';
import { decide, suggestRule, type Policy } from '../permissions';
import type { Decision } from '../permissions/types';
import type { ToolKind } from '../../protocol';
import { realPathOf, resolvePath } from '../tools/util/paths';

/** What the loop needs from its host to judge calls. */
export interface PermissionGate {
  /** The policy in force now (the host rebuilds it when settings, the workspace file or folders change). */
  policy(): Policy;
  /** "Always allow": adds the rule to the user's settings, where the user can see and remove it. */
  rememberRule(rule: string): Promise<void>;
}

export interface Judgement extends Decision {
  /** The narrow rule "Always allow" would add; absent when it may not be offered (protected paths, chains). */
  alwaysRule?: string;
}

/** Argument names that hold the path a file tool works on. */
const PATH_ARGUMENTS = ['file_path', 'notebook_path', 'path'] as const;

export async function judgeCall(
  gate: PermissionGate | undefined,
  call: { tool: string; kind: ToolKind; input: unknown },
  workspace: WorkspacePort,
): Promise<Judgement> {
  if (!gate) return withoutPolicy(call.kind);
  const input = isRecord(call.input) ? call.input : {};
  const policy = gate.policy();
  const realPath = await targetRealPath(input, workspace);
  const request = { tool: call.tool, kind: call.kind, input, ...(realPath ? { realPath } : {}) };
  const decision = decide(request, policy);
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

async function targetRealPath(input: Record<string, unknown>, workspace: WorkspacePort): Promise<string | undefined> {
  for (const name of PATH_ARGUMENTS) {
    const given = input[name];
    if (typeof given !== 'string' || !given.trim()) continue;
    try {
      return await realPathOf(workspace, await resolvePath(workspace, given));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
