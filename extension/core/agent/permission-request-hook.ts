// PermissionRequest hooks (Claude Code's format): fired when an approval card is about to be shown, they
// may answer it — `hookSpecificOutput.decision.behavior` allow or deny (with `message`), exit code 2
// denies. Adversarially, as PreToolUse's allow (hook-permission.ts): a deny always holds, but an allow
// answers only the policy's default question. A user's ask rule, a protected path, a read or write
// outside the workspace, a command that cannot be judged and the box's escape prompts still ask the
// user (deny rules never reach a card at all), and no command is allowed while no sandbox works.
import { hookAllowRefusal } from '../extensions/hooks/hook-permission';
import type { ToolResult } from '../tools/types';
import { errorResult } from '../tools/types';
import type { Judgement } from './permission-gate';
import type { TurnOptions } from './turn';

export type PermissionRequestAnswer =
  | { kind: 'ask'; notes: string[] }
  | { kind: 'allow'; notes: string[] }
  | { kind: 'deny'; notes: string[]; result: ToolResult };

export async function askPermissionRequestHooks(
  opts: TurnOptions,
  call: { tool: string; input: unknown; callId: string },
  judged: Judgement,
): Promise<PermissionRequestAnswer> {
  if (!opts.hooks) return { kind: 'ask', notes: [] };
  const r = await opts.hooks.permissionRequest(call.tool, call.input, call.callId, opts.signal);
  const notes = [...r.notes];
  if (r.permission === 'deny' || r.block) {
    const why = r.reason ? `: ${r.reason}` : '';
    return {
      kind: 'deny',
      notes,
      result: errorResult(
        `Denied by the user's PermissionRequest hook${why}. Do not retry it unchanged; take another approach.`,
      ),
    };
  }
  if (r.permission !== 'allow') return { kind: 'ask', notes };
  const noBox = hookAllowRefusal(call.tool, opts.ports.sandbox?.status());
  if (noBox) {
    notes.push(`A PermissionRequest hook's allow cannot answer this: ${noBox}.`);
    return { kind: 'ask', notes };
  }
  if (judged.source === 'default') return { kind: 'allow', notes };
  notes.push(`A PermissionRequest hook's allow cannot answer this question (${judged.reason}); you are asked.`);
  return { kind: 'ask', notes };
}
