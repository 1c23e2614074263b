// What a PreToolUse hook's decision does to the permission policy's judgement. Adversarially: a hook
// (especially a workspace's) may only make things stricter, except for one narrow case.
// - deny: final. The call is refused whatever the rules say; no card, no "Always allow".
// - ask: a call the policy would run asks instead (a denied call stays denied).
// - allow: skips only the policy's *default* ask (no rule matched). It never overrides a deny rule,
//   the user's own ask rule, a protected path, a read or write outside the workspace, a command the
//   parser cannot judge, or the sandbox's prompts (running outside the box, no working box) — as in
//   Claude Code, where a hook's allow "skips the prompt but not deny or ask rules".
//   Nor does it run a command while no sandbox works (none here, or sextant.sandbox.mode off): the
//   command would run unboxed with no card, which the user's own defaultMode allow cannot do either.
import type { Decision } from '../../permissions/types';
import { runsCommands } from '../../sandbox/command-gate';
import type { SandboxStatus } from '../../sandbox/types';
import type { HookResult } from './hook-output';

type Judged = Decision & { alwaysRule?: string };

/**
 * Why no hook may allow this call, if none may: a command while no sandbox works. Undefined status is
 * a host without a sandbox port (unit tests of the loop); the extension always has one.
 */
export function hookAllowRefusal(tool: string, status: SandboxStatus | undefined): string | undefined {
  if (!runsCommands(tool) || !status || status.active) return undefined;
  const why = status.mode === 'off' ? 'sextant.sandbox.mode is off' : (status.reason ?? 'unknown reason');
  return `a hook allowed this, but no sandbox works here (${why}), so Sextant asks`;
}

/** `noBox`: hookAllowRefusal's answer for this call — a hook's allow then still asks. */
export function withHookDecision<J extends Judged>(judged: J, hook: HookResult, noBox?: string): J {
  const reason = hook.reason ? `: ${hook.reason}` : '';
  if (hook.permission === 'deny' || hook.block) {
    const { alwaysRule: _never, ...rest } = judged;
    return { ...rest, decision: 'deny', source: 'hook', reason: `a PreToolUse hook denied it${reason}` } as J;
  }
  if (judged.decision === 'deny') return judged;
  if (hook.permission === 'ask') {
    if (judged.decision === 'ask')
      return { ...judged, reason: `${judged.reason}; a PreToolUse hook asks too${reason}` };
    const { alwaysRule: _none, ...rest } = judged;
    return { ...rest, decision: 'ask', source: 'hook', reason: `a PreToolUse hook asks${reason}` } as J;
  }
  if (hook.permission === 'allow' && judged.decision === 'ask' && judged.source === 'default') {
    if (noBox) return { ...judged, reason: `${judged.reason}; ${noBox}` };
    const { alwaysRule: _unused, ...rest } = judged;
    return { ...rest, decision: 'allow', source: 'hook', reason: `a PreToolUse hook allowed it${reason}` } as J;
  }
  return judged;
}
