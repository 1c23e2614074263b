// Fires the hooks of an event: picks the hooks in force whose matcher fits, runs them in parallel
// (the same command once), each with Claude Code's JSON on stdin, and merges what they said. Which
// hooks are in force is the host's answer (`hooks()`): the user's, and the workspace's only once the
// user approved them in a trusted workspace (hook-trust.ts). Every hook that ran is one audit entry.
import type { Logger } from '../../ports';
import type { AuditEntry, AuditStatus } from '../../security/audit-log';
import type { HookCommand, HookEvent } from './config';
import { type HookResult, type HookVerdict, mergeVerdicts, NO_HOOKS, readVerdict } from './hook-output';
import type { HookProcessRunner } from './hook-process';
import { claudeToolName, matcherMatches } from './tool-names';

export interface HookEngineOptions {
  /** The hooks in force now. */
  hooks(): readonly HookCommand[];
  run: HookProcessRunner;
  /** The environment hooks get: the host's, scrubbed of keys and secret-named variables. */
  env(): Record<string, string>;
  /** The workspace folder hooks run in (Claude Code's project dir). */
  cwd(): string | undefined;
  audit?(entry: AuditEntry): void;
  log?: Logger;
}

export interface HookCall {
  sessionId: string;
  signal: AbortSignal;
  /** For the audit log and the box's lines. */
  callId?: string;
  /** What the matcher is tried against: the tool (Pre/PostToolUse), the trigger (PreCompact), … */
  matchOn?: string;
}

const TOOL_EVENTS = new Set<HookEvent>(['PreToolUse', 'PostToolUse', 'PermissionRequest']);

export class HookEngine {
  constructor(private readonly o: HookEngineOptions) {}

  /** The hooks an event would run (matcher applied). */
  selected(event: HookEvent, matchOn?: string): HookCommand[] {
    const seen = new Set<string>();
    return this.o.hooks().filter((h) => {
      if (h.event !== event) return false;
      if (matchOn !== undefined && !matcherMatches(h.matcher, matchOn)) return false;
      if (matchOn === undefined && TOOL_EVENTS.has(event) && h.matcher.trim() && h.matcher.trim() !== '*') return false;
      if (seen.has(h.command)) return false;
      seen.add(h.command);
      return true;
    });
  }

  /**
   * Runs the event's hooks with `input` (Claude Code's event fields: tool_name, tool_input, prompt, …;
   * session_id, cwd and hook_event_name are added here) and merges their verdicts.
   */
  async fire(event: HookEvent, input: Record<string, unknown>, call: HookCall): Promise<HookResult> {
    const hooks = this.selected(event, call.matchOn);
    if (!hooks.length) return NO_HOOKS;
    const cwd = this.o.cwd() ?? process.cwd();
    const stdin = JSON.stringify({
      session_id: call.sessionId,
      transcript_path: '',
      cwd,
      hook_event_name: event,
      ...input,
    });
    const env = { ...this.o.env(), CLAUDE_PROJECT_DIR: cwd, SEXTANT_PROJECT_DIR: cwd };
    const verdicts = await Promise.all(
      hooks.map(async (hook, i): Promise<HookVerdict> => {
        const started = Date.now();
        const result = await this.o.run({
          command: hook.command,
          stdin,
          cwd,
          env,
          timeoutMs: hook.timeoutS * 1000,
          signal: call.signal,
          sessionId: call.sessionId,
          callId: `${call.callId ?? event}:hook${i}`,
        });
        const verdict = readVerdict(hook, result);
        this.audit(event, verdict, call, input, result.exitCode, Date.now() - started);
        if (verdict.outcome !== 'ok') this.o.log?.warn(verdict.note);
        return verdict;
      }),
    );
    return mergeVerdicts(verdicts);
  }

  private audit(
    event: HookEvent,
    v: HookVerdict,
    call: HookCall,
    input: Record<string, unknown>,
    exitCode: number | null,
    durationMs: number,
  ): void {
    const status: AuditStatus =
      v.outcome === 'ok' ? 'ok' : v.outcome === 'blocked' ? 'denied' : v.outcome === 'stopped' ? 'aborted' : 'error';
    this.o.audit?.({
      sessionId: call.sessionId,
      callId: call.callId ?? event,
      tool: `hook:${event}`,
      decision: v.permission ?? (v.block ? 'deny' : 'allow'),
      decidedBy: 'hook',
      rule: `${v.hook.scope} hook (${v.hook.source}): ${v.hook.command}`,
      status,
      durationMs,
      args: {
        ...(typeof input.tool_name === 'string' ? { tool: input.tool_name } : {}),
        exitCode,
        outcome: v.outcome,
        ...(v.reason ? { reason: v.reason } : {}),
      },
    });
  }
}

/** Claude Code's tool fields for a call of one of our tools. */
export function toolHookInput(tool: string, input: unknown): Record<string, unknown> {
  return { tool_name: claudeToolName(tool), tool_input: input ?? {} };
}
