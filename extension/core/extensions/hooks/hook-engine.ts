// Fires the hooks of an event: picks the hooks in force whose matcher fits, runs them in parallel
// (the same command once), each with Claude Code's JSON on stdin, and merges what they said. Which
// hooks are in force is the host's answer (`hooks()`): the user's, and the workspace's only once the
// user approved them in a trusted workspace (hook-trust.ts). Every hook that ran is one audit entry.
import type { Policy } from '../../permissions';
import type { Logger } from '../../ports';
import type { AuditEntry, AuditStatus } from '../../security/audit-log';
import type { HookCommand, HookEvent } from './config';
import { type HookResult, type HookVerdict, mergeVerdicts, NO_HOOKS, readVerdict } from './hook-output';
import type { HookProcessRunner } from './hook-process';
import { claudeToolName, matcherMatches } from './tool-names';
import { type ConditionParse, HookConditions, parseHookCondition } from './hook-condition';

export interface HookEngineOptions {
  /** The hooks in force now. */
  hooks(): readonly HookCommand[];
  run: HookProcessRunner;
  /** The environment hooks get: the host's, scrubbed of keys and secret-named variables. */
  env(): Record<string, string>;
  /** The folder a session's hooks run in (Claude Code's project dir; a worktree session's: its worktree). */
  cwd(sessionId?: string): string | undefined;
  audit?(entry: AuditEntry): void;
  log?: Logger;
  /** The permission policy in force: a hook's `if` is judged with its parser, folders and tool facts. */
  policy?(): Policy | undefined;
}

export interface HookCall {
  sessionId: string;
  signal: AbortSignal;
  /** For the audit log and the box's lines. */
  callId?: string;
  /** What the matcher is tried against: the tool (Pre/PostToolUse), the trigger (PreCompact), … */
  matchOn?: string;
  /** Tool events: the call (our tool name, its input) a hook's `if` is tried against. */
  toolCall?: ToolCallSubject;
}

export interface ToolCallSubject {
  tool: string;
  input: unknown;
}

/** A hook picked for an event; `allowWhy` set: its allow does not count (its `if` does not cover the call). */
interface Picked {
  hook: HookCommand;
  allowWhy?: string;
}

const TOOL_EVENTS = new Set<HookEvent>(['PreToolUse', 'PostToolUse', 'PermissionRequest']);

export class HookEngine {
  private readonly conditions = new HookConditions();
  private readonly parsed = new Map<string, ConditionParse>();

  constructor(private readonly o: HookEngineOptions) {}

  /** The hooks an event would run (matcher and, on tool events, `if` applied). */
  selected(event: HookEvent, matchOn?: string, toolCall?: ToolCallSubject): HookCommand[] {
    return this.pick(event, matchOn, toolCall).map((p) => p.hook);
  }

  private pick(event: HookEvent, matchOn?: string, toolCall?: ToolCallSubject): Picked[] {
    const seen = new Set<string>();
    const out: Picked[] = [];
    for (const h of this.o.hooks()) {
      if (h.event !== event) continue;
      if (matchOn !== undefined && !matcherMatches(h.matcher, matchOn)) continue;
      if (matchOn === undefined && TOOL_EVENTS.has(event) && h.matcher.trim() && h.matcher.trim() !== '*') continue;
      if (seen.has(h.command)) continue;
      const picked = h.if !== undefined && TOOL_EVENTS.has(event) ? this.withCondition(h, h.if, toolCall) : { hook: h };
      if (!picked) continue;
      seen.add(h.command);
      out.push(picked);
    }
    return out;
  }

  /** A hook with an `if`: skipped when no part of the call matches; run, allow void, when unsure. */
  private withCondition(hook: HookCommand, text: string, toolCall: ToolCallSubject | undefined): Picked | undefined {
    let parsed = this.parsed.get(text);
    if (!parsed) {
      parsed = parseHookCondition(text);
      this.parsed.set(text, parsed);
    }
    if (!parsed.ok) return { hook, allowWhy: parsed.problem };
    const policy = this.o.policy?.();
    if (!policy || !toolCall) return { hook, allowWhy: `its "if" ${text} could not be judged here` };
    const input = isRecord(toolCall.input) ? toolCall.input : {};
    const match = this.conditions.match(parsed.rules, { tool: toolCall.tool, input }, policy);
    if (match === 'none') return undefined;
    if (match === 'some') return { hook, allowWhy: `its "if" ${text} does not cover every part of this call` };
    return { hook };
  }

  /**
   * Runs the event's hooks with `input` (Claude Code's event fields: tool_name, tool_input, prompt, …;
   * session_id, cwd and hook_event_name are added here) and merges their verdicts.
   */
  async fire(event: HookEvent, input: Record<string, unknown>, call: HookCall): Promise<HookResult> {
    const hooks = this.pick(event, call.matchOn, call.toolCall);
    if (!hooks.length) return NO_HOOKS;
    const cwd = this.o.cwd(call.sessionId) ?? process.cwd();
    const stdin = JSON.stringify({
      session_id: call.sessionId,
      transcript_path: '',
      cwd,
      hook_event_name: event,
      ...input,
    });
    const env = { ...this.o.env(), CLAUDE_PROJECT_DIR: cwd, SEXTANT_PROJECT_DIR: cwd };
    const verdicts = await Promise.all(
      hooks.map(async ({ hook, allowWhy }, i): Promise<HookVerdict> => {
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
        const verdict = withoutVoidAllow(readVerdict(hook, result), allowWhy);
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

/** A hook whose `if` does not cover the call ran as a guard: its allow is dropped, and the card says why. */
function withoutVoidAllow(v: HookVerdict, why: string | undefined): HookVerdict {
  if (!why || v.permission !== 'allow') return v;
  const { permission: _void, ...rest } = v;
  return { ...rest, note: `${v.note} (its allow does not count: ${why})` };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Claude Code's tool fields for a call of one of our tools. */
export function toolHookInput(tool: string, input: unknown): Record<string, unknown> {
  return { tool_name: claudeToolName(tool), tool_input: input ?? {} };
}
