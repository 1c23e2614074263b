// What one hook said, read as Claude Code reads it, and what several hooks of one event say together.
// - exit 0: stdout that is a JSON object is the decision (`decision`, `reason`, `continue`,
//   `stopReason`, `systemMessage`, `hookSpecificOutput.permissionDecision` allow | deny | ask with
//   `permissionDecisionReason`, `hookSpecificOutput.updatedInput` (PreToolUse: the tool's input
//   rewritten), `hookSpecificOutput.additionalContext`, and PermissionRequest's
//   `hookSpecificOutput.decision` {behavior allow | deny, message}; its `interrupt` is not read); other
//   stdout is context for UserPromptSubmit and SessionStart, and a note on the card elsewhere.
// - exit 2: blocks, with stderr as the reason (what "blocks" means depends on the event).
// - any other exit, a timeout, a hook that cannot start: a non-blocking error, shown; the turn goes on.
import * as z from 'zod';
import type { HookCommand, HookEvent } from './config';
import type { HookProcessResult } from './hook-process';

export type HookPermission = 'allow' | 'deny' | 'ask';

export interface HookVerdict {
  hook: HookCommand;
  outcome: 'ok' | 'blocked' | 'error' | 'timeout' | 'stopped';
  /** PreToolUse's permission decision (PermissionRequest's: allow or deny). */
  permission?: HookPermission;
  /** PreToolUse: the tool's input as the hook rewrote it (validated and judged again by the caller). */
  updatedInput?: Record<string, unknown>;
  /** `decision: "block"` or exit code 2. */
  block?: boolean;
  reason?: string;
  additionalContext?: string;
  /** `continue: false`: the agent stops after this point. */
  halt?: boolean;
  stopReason?: string;
  /** A line for the user (the card it affected, or the chat). */
  note: string;
}

const OutputSchema = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    decision: z.enum(['approve', 'block', 'allow', 'deny', 'ask']).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .object({
        hookEventName: z.string().optional(),
        permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
        permissionDecisionReason: z.string().optional(),
        additionalContext: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        /** PermissionRequest's answer to the approval card. */
        decision: z
          .object({
            behavior: z.enum(['allow', 'deny']),
            message: z.string().optional(),
            interrupt: z.boolean().optional(),
          })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

const NOTE_CHARS = 500;

function clip(text: string): string {
  const t = text.trim();
  return t.length > NOTE_CHARS ? `${t.slice(0, NOTE_CHARS)}…` : t;
}

/** Events whose plain stdout is context for the model (as in Claude Code). */
const STDOUT_IS_CONTEXT = new Set<HookEvent>(['UserPromptSubmit', 'SessionStart']);

export function readVerdict(hook: HookCommand, r: HookProcessResult): HookVerdict {
  const name = `${hook.event} hook \`${clip(hook.command)}\``;
  if (r.aborted) return { hook, outcome: 'stopped', note: `${name} was stopped.` };
  if (r.timedOut)
    return { hook, outcome: 'timeout', note: `${name} timed out after ${hook.timeoutS} s and was ended; ignored.` };
  if (r.startError !== undefined)
    return { hook, outcome: 'error', note: `${name} could not start (${r.startError}); ignored.` };
  if (r.exitCode === 2) {
    const reason = r.stderr.trim() || 'no reason given';
    return {
      hook,
      outcome: 'blocked',
      block: true,
      permission: 'deny',
      reason,
      note: `${name} blocked: ${clip(reason)}`,
    };
  }
  if (r.exitCode !== 0) {
    const why = clip(r.stderr) || clip(r.stdout) || 'no output';
    return { hook, outcome: 'error', note: `${name} failed (exit code ${r.exitCode}): ${why}; ignored.` };
  }
  const out = r.stdout.trim();
  const json = out.startsWith('{') ? parseOutput(out) : undefined;
  if (!json) {
    if (STDOUT_IS_CONTEXT.has(hook.event) && out)
      return { hook, outcome: 'ok', additionalContext: out, note: `${name} added context.` };
    return { hook, outcome: 'ok', note: out ? `${name}: ${clip(out)}` : `${name} ran.` };
  }
  const specific = json.hookSpecificOutput;
  const v: HookVerdict = { hook, outcome: 'ok', note: '' };
  const asked = specific?.decision;
  const permission =
    hook.event === 'PermissionRequest'
      ? asked?.behavior
      : (specific?.permissionDecision ?? legacyPermission(json.decision));
  if (permission && (hook.event === 'PreToolUse' || hook.event === 'PermissionRequest')) v.permission = permission;
  if (hook.event === 'PreToolUse' && specific?.updatedInput) v.updatedInput = specific.updatedInput;
  if (json.decision === 'block') v.block = true;
  const reason = asked?.message ?? specific?.permissionDecisionReason ?? json.reason;
  if (reason) v.reason = reason;
  if (specific?.additionalContext) v.additionalContext = specific.additionalContext;
  if (json.continue === false) {
    v.halt = true;
    if (json.stopReason) v.stopReason = json.stopReason;
  }
  const said = [
    v.permission ? `${v.permission}${reason ? `: ${clip(reason)}` : ''}` : '',
    v.block ? `blocked${reason ? `: ${clip(reason)}` : ''}` : '',
    v.additionalContext ? 'added context' : '',
    v.updatedInput ? 'rewrote the input' : '',
    v.halt ? `stopped the agent${v.stopReason ? `: ${clip(v.stopReason)}` : ''}` : '',
    json.systemMessage ? clip(json.systemMessage) : '',
  ].filter(Boolean);
  v.note = `${name}: ${said.join('; ') || 'ran.'}`;
  return v;
}

function parseOutput(text: string): z.infer<typeof OutputSchema> | undefined {
  try {
    const parsed = OutputSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Claude Code's older PreToolUse words: "approve" and "block". */
function legacyPermission(decision: string | undefined): HookPermission | undefined {
  if (decision === 'approve' || decision === 'allow') return 'allow';
  if (decision === 'deny') return 'deny';
  if (decision === 'ask') return 'ask';
  return undefined;
}

/** What the hooks of one event said together. */
export interface HookResult {
  verdicts: HookVerdict[];
  /** PreToolUse: deny over ask over allow (as Claude Code orders them); absent when no hook decided. */
  permission?: HookPermission;
  /** Any hook blocked (exit 2 or `decision: "block"`). */
  block: boolean;
  /** The reasons of the deciding hooks, joined. */
  reason?: string;
  /** Every hook's additional context, in order. */
  additionalContext?: string;
  /** PreToolUse: the last rewritten input (none when a hook denied). */
  updatedInput?: Record<string, unknown>;
  halt: boolean;
  stopReason?: string;
  /** One line per hook that ran, for the card or the chat. */
  notes: string[];
}

export const NO_HOOKS: HookResult = { verdicts: [], block: false, halt: false, notes: [] };

export function mergeVerdicts(verdicts: HookVerdict[]): HookResult {
  if (!verdicts.length) return NO_HOOKS;
  const rank: Record<HookPermission, number> = { allow: 1, ask: 2, deny: 3 };
  let permission: HookPermission | undefined;
  for (const v of verdicts)
    if (v.permission && (!permission || rank[v.permission] > rank[permission])) permission = v.permission;
  const block = verdicts.some((v) => v.block);
  const deciding = verdicts.filter((v) => (block ? v.block : permission ? v.permission === permission : false));
  const reasons = deciding.map((v) => v.reason).filter((r): r is string => Boolean(r));
  const contexts = verdicts.map((v) => v.additionalContext).filter((c): c is string => Boolean(c));
  const halting = verdicts.find((v) => v.halt);
  const rewrites = verdicts.filter((v) => v.updatedInput);
  const updatedInput = permission === 'deny' || block ? undefined : rewrites[rewrites.length - 1]?.updatedInput;
  return {
    verdicts,
    ...(permission ? { permission } : {}),
    block,
    ...(reasons.length ? { reason: reasons.join('\n') } : {}),
    ...(contexts.length ? { additionalContext: contexts.join('\n\n') } : {}),
    ...(updatedInput ? { updatedInput } : {}),
    halt: Boolean(halting),
    ...(halting?.stopReason ? { stopReason: halting.stopReason } : {}),
    notes: verdicts.map((v) => v.note),
  };
}

/** Notes worth a line in the chat: a hook that ran and said nothing is shown on cards only. */
export function spokenNotes(result: HookResult): string[] {
  return result.notes.filter((n) => !n.endsWith(' ran.'));
}
