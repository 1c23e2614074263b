// The hooks of one session, event by event, with Claude Code's input fields. The turn loop, the tool
// step, the agent turn and compaction call these at their points; without hooks configured each is a
// cheap no-op (no process starts).
import type { HookEngine, ToolCallSubject } from './hook-engine';
import { type HookResult, NO_HOOKS } from './hook-output';
import { toolHookInput } from './hook-engine';

export interface ToolResponse {
  output: string;
  isError: boolean;
}

/** SessionEnd hooks are fire-and-forget, but never run longer than this. */
export const SESSION_END_TIMEOUT_MS = 10_000;

export class SessionHooks {
  constructor(
    private readonly engine: HookEngine,
    private readonly sessionId: string,
    /** A sub-agent's hooks: its tool calls carry `agent_type`, and its end fires SubagentStop, not Stop. */
    private readonly agent?: string,
  ) {}

  /** The hooks of a sub-agent of this session. */
  forSubagent(name: string): SessionHooks {
    return new SessionHooks(this.engine, this.sessionId, name);
  }

  private fire(
    event: Parameters<HookEngine['fire']>[0],
    input: Record<string, unknown>,
    signal: AbortSignal,
    o: { callId?: string; matchOn?: string; toolCall?: ToolCallSubject } = {},
  ): Promise<HookResult> {
    if (!this.engine.selected(event, o.matchOn, o.toolCall).length) return Promise.resolve(NO_HOOKS);
    return this.engine.fire(event, input, { sessionId: this.sessionId, signal, ...o });
  }

  preToolUse(tool: string, input: unknown, callId: string, signal: AbortSignal): Promise<HookResult> {
    return this.fire(
      'PreToolUse',
      { ...toolHookInput(tool, input), tool_use_id: callId, ...this.agentFields() },
      signal,
      { callId, matchOn: tool, toolCall: { tool, input } },
    );
  }

  /** The approval card is about to be shown: a hook may answer it (allow / deny). */
  permissionRequest(tool: string, input: unknown, callId: string, signal: AbortSignal): Promise<HookResult> {
    return this.fire('PermissionRequest', { ...toolHookInput(tool, input), ...this.agentFields() }, signal, {
      callId,
      matchOn: tool,
      toolCall: { tool, input },
    });
  }

  private agentFields(): Record<string, string> {
    return this.agent ? { agent_type: this.agent } : {};
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
      { callId, matchOn: tool, toolCall: { tool, input } },
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
    if (this.agent)
      return this.fire('SubagentStop', { stop_hook_active: active, agent_type: this.agent }, signal, {
        matchOn: this.agent,
      });
    return this.fire('Stop', { stop_hook_active: active }, signal);
  }

  /**
   * The chat ended (`clear`: New Chat; `other`: another chat opened, the window closed). Fire and
   * forget: resolves when the hooks ended, or after SESSION_END_TIMEOUT_MS, when they are stopped.
   */
  async sessionEnd(reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other'): Promise<void> {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), SESSION_END_TIMEOUT_MS);
    try {
      await this.fire('SessionEnd', { reason }, stop.signal, { matchOn: reason });
    } catch {
      // A SessionEnd hook cannot change anything: its failure is its own (logged by the engine).
    } finally {
      clearTimeout(timer);
    }
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
