// A goal's check (`/goal`, goal-loop.ts), in two kinds:
// - a command (`--check "npm test"`): run exactly as a bash call is judged and run — the permission policy,
//   the box's say on top (boxJudgement), then the box itself (startCommand). It is judged once, when the goal
//   starts: a command the policy refuses never becomes a goal, one that would ask asks then with the approval
//   card (approve: it runs after every turn of this goal; "Always allow" also saves the rule), and it never
//   runs unasked. Exit code 0 passes.
// - the model's judgement against the written condition: a separate call to a small model (a configured
//   Haiku, else the chat's model) that reads the condition and the last turn, and answers pass or fail with a
//   reason — said on every turn, as the command's last lines are.
import type { Mode } from '../../protocol';
import type { ToolPorts } from '../ports';
import type { Provider } from '../providers/types';
import { boxJudgement } from '../sandbox/command-gate';
import { startCommand } from '../tools/util/boxed-run';
import { capMiddle, stripAnsi } from '../tools/util/cap';
import { toolRedactor } from '../tools/util/redaction';
import { jobsOf } from '../tools/util/session';
import type { ToolSessionState } from '../tools/types';
import { judgeCall, type PermissionGate } from './permission-gate';

/** What the next turn is sent of a failed check's output: its head and tail. */
export const GOAL_OUTPUT_MAX_CHARS = 6_000;
/** A check command longer than this is killed and fails. */
const CHECK_TIMEOUT_MS = 10 * 60_000;

export interface CheckResult {
  passed: boolean;
  /** One line for the chat: "failed (exit 1)", "passed", the judge's reason. */
  summary: string;
  /** The output (redacted, capped) or the judge's reason: what the next turn is told. */
  detail: string;
}

export interface CommandCheckDeps {
  permissions?: PermissionGate;
  ports: ToolPorts;
  session: ToolSessionState;
  newId(): string;
}

/**
 * Whether the check command may run: undefined when it may (allowed, or approved now), else why not. Asks
 * (once) through `ports.approval` when the policy says ask.
 */
export async function admitCheckCommand(
  command: string,
  mode: Mode,
  d: CommandCheckDeps,
  signal: AbortSignal,
): Promise<string | undefined> {
  if (mode !== 'agent') return 'a check command runs only in Agent mode';
  const input = { command };
  const judged = boxJudgement(
    await judgeCall(d.permissions, { tool: 'bash', kind: 'execute', input }, d.ports.workspace),
    { tool: 'bash', input },
    d.ports.sandbox?.status(),
  );
  if (judged.decision === 'allow') return undefined;
  if (judged.decision === 'deny') return `the permission rules refuse it (${judged.reason})`;
  const decision = await d.ports.approval.request(
    {
      callId: `goal-check-${d.newId()}`,
      sessionId: d.session.sessionId,
      tool: 'bash',
      kind: 'execute',
      subject: command,
      detail: `${command}\n\nThe goal's check: it runs after every turn of this goal until it passes.`,
      reason: judged.reason,
      ...(judged.rule ? { rule: judged.rule } : {}),
      ...(judged.alwaysRule ? { alwaysRule: judged.alwaysRule } : {}),
    },
    signal,
  );
  if (decision.decision === 'deny') return `you denied it${decision.reason ? ` (${decision.reason})` : ''}`;
  if (decision.decision === 'always' && judged.alwaysRule && d.permissions)
    await d.permissions.rememberRule(judged.alwaysRule).catch(() => undefined);
  return undefined;
}

/** Runs the (admitted) check command in the box, in the first workspace folder. */
export async function runCheckCommand(command: string, d: CommandCheckDeps, signal: AbortSignal): Promise<CheckResult> {
  const cwd = d.ports.workspace.roots()[0];
  if (!cwd) return { passed: false, summary: 'not run', detail: 'No workspace folder is open.' };
  const ctx = {
    signal,
    ports: d.ports,
    session: d.session,
    callId: `goal-check-${d.newId()}`,
    progress: () => {},
    supportsImages: false,
  };
  try {
    const job = await startCommand(ctx, {
      command,
      cwd,
      timeoutMs: CHECK_TIMEOUT_MS,
      background: false,
      unboxed: false,
    });
    const onAbort = () => jobsOf(d.session).kill(job.id, 'killed');
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await job.done;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    jobsOf(d.session).forget(job.id);
    const raw = stripAnsi(job.output.text()).replace(/\r\n/g, '\n').trimEnd();
    const output = toolRedactor(d.ports)(capMiddle(raw, GOAL_OUTPUT_MAX_CHARS).text);
    const passed = job.status === 'exited' && job.exitCode === 0;
    const how =
      job.status === 'exited' ? `exit ${job.exitCode}` : job.status === 'timed_out' ? 'timed out' : job.status;
    return { passed, summary: passed ? 'passed' : `failed (${how})`, detail: output || '(no output)' };
  } catch (err) {
    return { passed: false, summary: 'not run', detail: `It could not start: ${(err as Error).message}` };
  }
}

/** The last lines of an output, for the one-line notice in the chat. */
export function lastLines(text: string, n = 3): string {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter(Boolean)
    .slice(-n)
    .join(' ⏎ ');
}

const JUDGE_SYSTEM =
  'You check whether a coding agent has met a goal. You get the goal and what the agent did and said in its ' +
  'last turn. Judge only from that evidence; do not assume work you cannot see. Answer with one JSON object ' +
  'and nothing else: {"met": true|false, "reason": "<one short sentence>"}.';

/** Caps what the judge reads of the turn (its end matters most). */
const JUDGE_TRANSCRIPT_MAX_CHARS = 24_000;

/** The small model's verdict on the condition, from the last turn's transcript. */
export async function judgeCondition(
  llm: { provider: Provider; model: string },
  condition: string,
  transcript: string,
  signal: AbortSignal,
): Promise<CheckResult> {
  const content =
    `Goal:\n${condition}\n\nThe agent's last turn:\n` +
    capMiddle(transcript, JUDGE_TRANSCRIPT_MAX_CHARS).text +
    '\n\nHas the goal been met?';
  let text = '';
  for await (const ev of llm.provider.stream(
    { model: llm.model, system: JUDGE_SYSTEM, messages: [{ role: 'user', content }] },
    signal,
  ))
    if (ev.type === 'text') text += ev.text;
  const verdict = parseVerdict(text);
  if (!verdict)
    return {
      passed: false,
      summary: 'no verdict',
      detail: `The judge's answer could not be read: ${text.slice(0, 200)}`,
    };
  return { passed: verdict.met, summary: verdict.met ? 'passed' : 'not met', detail: verdict.reason };
}

function parseVerdict(text: string): { met: boolean; reason: string } | undefined {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  if (!json) return undefined;
  try {
    const v = JSON.parse(json) as { met?: unknown; reason?: unknown };
    if (typeof v.met !== 'boolean') return undefined;
    return { met: v.met, reason: typeof v.reason === 'string' && v.reason ? v.reason : '(no reason given)' };
  } catch {
    return undefined;
  }
}
