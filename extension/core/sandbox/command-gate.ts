// How the box changes the permission decision for a command. Pure; tool-step.ts applies it to every
// command-running call after the policy has judged it (table-tested in test/unit/sandbox/).
//
// - A request to run outside the box ALWAYS asks: in every mode, whatever the rules say, and with no
//   "Always allow" — only a deny rule still wins (then nothing runs at all).
// - `auto` with a working box: what the policy would ask by default (no rule, a write outside the
//   workspace, a command it cannot judge) runs inside the box without asking — the box confines it.
//   Deny rules, the user's ask rules and protected paths still apply.
// - No working box (Windows, bwrap missing, user namespaces refused): a command runs unasked only
//   when the user's own rule allows it; a permissive default mode does not cover it.
// - Required by the administrator (managed settings): a request to run outside the box, or any command
//   where no box works, is refused — never asked.
import type { Decision } from '../permissions/types';
import type { SandboxStatus } from './types';

/** The bash argument through which the model asks to run a command outside the box, with its reason. */
export const OUTSIDE_BOX_ARGUMENT = 'outside_box';

/** Tools whose calls start programs, and therefore run in the box. */
const COMMAND_TOOLS = new Set(['bash']);

export function runsCommands(tool: string): boolean {
  return COMMAND_TOOLS.has(tool);
}

/** The model's reason for running outside the box, when the call asks for that. */
export function outsideBoxReason(tool: string, input: unknown): string | undefined {
  if (!runsCommands(tool) || typeof input !== 'object' || input === null) return undefined;
  const v = (input as Record<string, unknown>)[OUTSIDE_BOX_ARGUMENT];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

type Judged = Decision & { alwaysRule?: string };

export function boxJudgement<J extends Judged>(
  judged: J,
  call: { tool: string; input: unknown },
  status: SandboxStatus | undefined,
): J {
  if (!runsCommands(call.tool)) return judged;
  const asked = outsideBoxReason(call.tool, call.input);
  if (status?.required && judged.decision !== 'deny' && (asked !== undefined || !status.active)) {
    // Managed settings: nothing runs outside the box, whoever asks and whatever the rules say.
    const { alwaysRule: _never, ...rest } = judged;
    return {
      ...rest,
      decision: 'deny',
      source: 'confinement',
      reason:
        asked !== undefined
          ? 'your administrator requires the sandbox (managed settings): commands never run outside it'
          : 'your administrator requires the sandbox (managed settings) and none works here ' +
            `(${status.reason ?? 'unknown reason'}), so commands cannot run`,
    } as J;
  }
  if (asked !== undefined) {
    if (judged.decision === 'deny') return judged;
    const { alwaysRule: _never, ...rest } = judged;
    return {
      ...rest,
      decision: 'ask',
      source: 'confinement',
      reason: `the model asks to run this outside the sandbox ("${asked}"); that always asks`,
    } as J;
  }
  if (!status || status.mode === 'off') return judged;
  if (!status.active) {
    if (judged.decision !== 'allow' || judged.source === 'rule') return judged;
    return {
      ...judged,
      decision: 'ask',
      source: 'confinement',
      reason:
        `no sandbox works here (${status.reason ?? 'unknown reason'}), so commands ask unless your own rule ` +
        'allows them',
    };
  }
  if (
    status.mode === 'auto' &&
    judged.decision === 'ask' &&
    judged.source !== 'rule' &&
    judged.source !== 'protected'
  ) {
    const { alwaysRule: _unused, ...rest } = judged;
    return {
      ...rest,
      decision: 'allow',
      source: 'default',
      reason: 'sextant.sandbox.mode auto runs commands inside the sandbox without asking',
    } as J;
  }
  return judged;
}
