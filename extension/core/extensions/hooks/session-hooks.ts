// The hooks of one session, event by event, with Claude Code's input fields. The turn loop, the tool
// step, the agent turn and compaction call these at their points; without hooks configured each is a
// cheap no-op (no process starts).
import type { HookEngine } from './hook-engine';
import { type HookResult, NO_HOOKS } from './hook-output';
import { toolHookInput } from './hook-engine';

export interface ToolResponse {
  output: string;
  isError: boolean;
}

export class SessionHooks {
  constructor(
    private readonly engine: HookEngine,
    private readonly sessionId: string,
  ) {}

  private fire(
    event: Parameters<HookEngine['fire']>[0],
    input: Record<string, unknown>,
    signal: AbortSignal,
    o: { callId?: string; matchOn?: string } = {},
  ): Promise<HookResult> {
    if (!this.engine.selected(event, o.matchOn).length) return Promise.resolve(NO_HOOKS);
    return this.engine.fire(event, input, { sessionId: this.sessionId, signal, ...o });
  }

  preToolUse(tool: string, input: unknown, callId: string, signal: AbortSignal): Promise<HookResult> {
    return this.fire('PreToolUse', { ...toolHookInput(tool, input), tool_use_id: callId }, signal, {
      callId,
      matchOn: tool,
    });
  }

  postToolUse(
    tool: string,
    input: unknown,
    response: ToolResponse,
    callId: string,
    signal: AbortSignal,
  ): Promise<HookResult> {
    return this.fire(
      'PostToolUse',
      {
        ...toolHookInput(tool, input),
        tool_use_id: callId,
        tool_response: { output: response.output, is_error: response.isError, success: !response.isError },
      },
      signal,
      { callId, matchOn: tool },
    );
  }

  userPromptSubmit(prompt: string, signal: AbortSignal): Promise<HookResult> {
    return this.fire('UserPromptSubmit', { prompt }, signal);
  }

  sessionStart(source: 'startup' | 'resume' | 'clear' | 'compact', signal: AbortSignal): Promise<HookResult> {
    return this.fire('SessionStart', { source }, signal, { matchOn: source });
  }

  /** `active`: the turn already went on once because a Stop hook blocked (Claude Code's stop_hook_active). */
  stop(active: boolean, signal: AbortSignal): Promise<HookResult> {
    return this.fire('Stop', { stop_hook_active: active }, signal);
  }

  preCompact(trigger: 'manual' | 'auto', signal: AbortSignal): Promise<HookResult> {
    return this.fire('PreCompact', { trigger, custom_instructions: '' }, signal, { matchOn: trigger });
  }

  /** Fire and forget: a notification hook never holds the agent up. */
  notify(message: string, type: string, signal: AbortSignal): void {
    void this.fire('Notification', { message, notification_type: type }, signal, { matchOn: type }).catch(
      () => undefined,
    );
  }
}
