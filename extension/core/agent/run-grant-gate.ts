// Wires a run's grant (core/permissions/run-grant.ts) into the permission gate of one request, and
// records it: the grant itself in the audit log when the run starts, each use with the call it allowed
// (tool-step.ts's audit entry, decided by `plan`).
import { type PlanGrant, planGrantText } from '../../protocol';
import type { WorkspacePort } from '../ports';
import { RunGrant } from '../permissions/run-grant';
import type { AuditEntry } from '../security/audit-log';
import { type PermissionGate, targetRealPaths } from './permission-gate';

/** The gate of one run with its own grant; a fresh one per request, so the grant ends with the run. */
export function gateWithRunGrant(gate: PermissionGate, plan: PlanGrant | undefined): PermissionGate {
  return {
    policy: () => gate.policy(),
    rememberRule: (rule) => gate.rememberRule(rule),
    ...(gate.preApproved ? { preApproved: gate.preApproved } : {}),
    runGrant: new RunGrant(plan),
  };
}

/** The audit entry of a plan's grant, written once when the run it was approved for starts. */
export function auditPlanGrant(
  audit: ((entry: AuditEntry) => void) | undefined,
  sessionId: string,
  id: string,
  plan: PlanGrant,
): void {
  audit?.({
    sessionId,
    callId: `plan-grant-${id}`,
    tool: 'plan_grant',
    decision: 'allow',
    decidedBy: 'user',
    rule: planGrantText(plan) ?? 'nothing granted',
    status: 'ok',
    durationMs: 0,
    args: { files: plan.files, commands: plan.commands },
  });
}

/** "Approve rest of turn for this file": the file the approved edit writes (its real path) joins the grant. */
export async function grantRestOfTurn(
  gate: PermissionGate | undefined,
  call: { tool: string; input: unknown },
  workspace: WorkspacePort,
): Promise<boolean> {
  const grant = gate?.runGrant;
  if (!gate || !grant) return false;
  const facts = gate.policy().tools[call.tool];
  const input = typeof call.input === 'object' && call.input !== null ? (call.input as Record<string, unknown>) : {};
  const real = await targetRealPaths(facts, input, workspace);
  if (real?.length !== 1 || !real[0]) return false;
  grant.grantFile(real[0]);
  return true;
}
