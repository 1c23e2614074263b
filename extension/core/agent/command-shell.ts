// A command file's `` !`command` `` lines, run before its prompt is sent (Claude Code's "Bash command
// execution"), each exactly as a bash tool call would be judged and run: the permission policy with the
// command's own `allowed-tools` pre-approved for this turn, the box's say on top (boxJudgement), then the
// box itself (startCommand) — never around them. Nothing here asks: there is no tool card to ask on before
// the model is called, so what would ask is not run, and the model reads why in the command's place.
import type { Mode } from '../../protocol';
import type { ToolPorts } from '../ports';
import { boxJudgement } from '../sandbox/command-gate';
import type { AuditEntry } from '../security/audit-log';
import { statusLine } from '../tools/bash';
import type { ToolSessionState } from '../tools/types';
import { startCommand } from '../tools/util/boxed-run';
import { capMiddle, stripAnsi } from '../tools/util/cap';
import { toolRedactor } from '../tools/util/redaction';
import { jobsOf } from '../tools/util/session';
import { withShellOutputs } from '../extensions/command-body';
import { judgeCall, type PermissionGate } from './permission-gate';

/** A command's output in the prompt is context, not a log: its head and tail are kept. */
export const SHELL_OUTPUT_MAX_CHARS = 8_000;
const SHELL_TIMEOUT_MS = 60_000;

export interface CommandShellDeps {
  mode: Mode;
  /** The turn's gate: the user's policy with the command's `allowed-tools` pre-approved. */
  permissions?: PermissionGate;
  ports: ToolPorts;
  session: ToolSessionState;
  signal: AbortSignal;
  /** The turn's checkpoint: what the command changes can be rewound like a bash call's. */
  beforeCommand?: () => Promise<() => Promise<unknown>>;
  audit?: (entry: AuditEntry) => void;
  newId(): string;
  now(): number;
}

/** The command body with each `` !`command` `` replaced by its (redacted, capped) output or why it did not run. */
export function runShellCommandsOf(body: string, deps: CommandShellDeps): Promise<string> {
  const redact = toolRedactor(deps.ports);
  return withShellOutputs(body, async (command) => redact(block(command, await runOne(command, deps))));
}

async function runOne(command: string, d: CommandShellDeps): Promise<string> {
  if (d.mode !== 'agent') return '[not run: commands run only in Agent mode]';
  const callId = `command-shell-${d.newId()}`;
  const input = { command };
  const started = d.now();
  const judged = boxJudgement(
    await judgeCall(d.permissions, { tool: 'bash', kind: 'execute', input }, d.ports.workspace),
    { tool: 'bash', input },
    d.ports.sandbox?.status(),
  );
  const audit = (status: AuditEntry['status']) =>
    d.audit?.({
      sessionId: d.session.sessionId,
      callId,
      tool: 'bash',
      decision: judged.decision,
      decidedBy: judged.source === 'parse' ? 'default' : judged.source,
      ...(judged.rule ? { rule: judged.rule } : judged.decision === 'allow' ? {} : { rule: judged.reason }),
      status,
      durationMs: d.now() - started,
      args: input,
    });
  if (judged.decision === 'deny') {
    audit('denied');
    return `[not run: refused by the permission rules (${judged.reason})]`;
  }
  if (judged.decision === 'ask') {
    audit('denied');
    return (
      `[not run: it would need the user's approval (${judged.reason}). A command file's commands run only when ` +
      "its allowed-tools (e.g. Bash(git status:*)) or the user's rules allow them]"
    );
  }
  const cwd = d.ports.workspace.roots()[0];
  if (!cwd) return '[not run: no workspace folder is open]';
  const ctx = {
    signal: d.signal,
    ports: d.ports,
    session: d.session,
    callId,
    progress: () => {},
    supportsImages: false,
  };
  const after = await d.beforeCommand?.();
  try {
    const job = await startCommand(ctx, {
      command,
      cwd,
      timeoutMs: SHELL_TIMEOUT_MS,
      background: false,
      unboxed: false,
    });
    const onAbort = () => jobsOf(d.session).kill(job.id, 'killed');
    d.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await job.done;
    } finally {
      d.signal.removeEventListener('abort', onAbort);
    }
    jobsOf(d.session).forget(job.id);
    const output = capMiddle(stripAnsi(job.output.text()).replace(/\r\n/g, '\n'), SHELL_OUTPUT_MAX_CHARS).text;
    audit(job.status === 'exited' && job.exitCode === 0 ? 'ok' : 'error');
    const body = output.trim() === '' ? '(no output)' : output.replace(/\n+$/, '');
    return `${body}\n${statusLine(job)}`;
  } catch (err) {
    audit('error');
    return `[not run: could not start it: ${(err as Error).message}]`;
  } finally {
    await after?.();
  }
}

/** The output in the command's place, fenced and naming what ran. */
function block(command: string, text: string): string {
  const fence = text.includes('```') ? '~~~~' : '```';
  return `\n${fence}\n$ ${command}\n${text}\n${fence}\n`;
}
