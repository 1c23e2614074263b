// bash: run a shell command in the workspace. Output is always captured from the child process
// (the VS Code terminal is only a mirror), capped head+tail for the model, kept whole for paging.
import * as z from 'zod';
import { commandShellNote } from './util/command-shell';
import { defineTool, errorResult, type ToolContext, type ToolResult } from './types';
import { capMiddle, formatDuration, stripAnsi } from './util/cap';
import { jobsOf } from './util/session';
import type { Job } from './util/jobs';
import { askAtTheEdge, startCommand } from './util/boxed-run';
import { settleRunLater } from './util/run-later-ask';
import { OUTSIDE_BOX_ARGUMENT, outsideBoxReason } from '../sandbox/command-gate';
import { refusalNote } from '../sandbox/refusal';
import { redactingStream, toolRedactor } from './util/redaction';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
export const OUTPUT_CAP_CHARS = 30_000;
const PROGRESS_INTERVAL_MS = 100;

const input = z.object({
  command: z.string().min(1).describe('The command to run with bash -c in the workspace folder.'),
  description: z
    .string()
    .optional()
    .describe('A short (5–10 words) description of what the command does, shown to the user.'),
  timeout: z
    .number()
    .int()
    .min(1000)
    .max(MAX_TIMEOUT_MS)
    .optional()
    .describe(
      `Timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS}; background jobs have none ` +
        'unless given).',
    ),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Start the command and return a job id at once (for servers, watchers, long builds). Read its output with ' +
        'bash_output, stop it with kill_shell.',
    ),
  [OUTSIDE_BOX_ARGUMENT]: z
    .string()
    .optional()
    .describe(
      'Only when the command cannot work in the sandbox (it must write outside the workspace, or reach a host ' +
        'that is not allowed): why it must run outside. The user is always asked; never retry a refused command ' +
        'this way without saying why.',
    ),
});
type Input = z.infer<typeof input>;

function workspaceCwd(ctx: ToolContext): string {
  const root = ctx.ports.workspace.roots()[0];
  if (!root) throw new Error('No workspace folder is open, so there is nowhere to run commands.');
  return root;
}

/** The outcome line the model and the card both get. */
export function statusLine(job: Job): string {
  const took = formatDuration((job.endedAt ?? Date.now()) - job.startedAt);
  switch (job.status) {
    case 'running':
      return `[running for ${took}]`;
    case 'timed_out':
      return `[timed out after ${took}; the command and its child processes were killed]`;
    case 'killed':
      return `[killed after ${took}]`;
    default: {
      const line =
        job.exitCode === null
          ? `[terminated by ${job.signal ?? 'a signal'} after ${took}]`
          : `[exit code ${job.exitCode} · ${took}]`;
      const refused = job.boxRefusal ? `\n${refusalNote(job.boxRefusal)}` : '';
      return `${line}${refused}${job.runLaterNote ? `\n${job.runLaterNote}` : ''}`;
    }
  }
}

/** Streams output chunks to ctx.progress, coalesced so a chatty command does not flood the UI. */
function progressPump(ctx: ToolContext): { push(s: string): void; flush(): void } {
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending) ctx.progress(pending);
    pending = '';
  };
  return {
    push(s) {
      pending += s;
      if (!timer) timer = setTimeout(flush, PROGRESS_INTERVAL_MS);
    },
    flush,
  };
}

/** Shows the command and its live output in the editor's terminal panel (display only). */
function mirrorToTerminal(ctx: ToolContext, job: Job): void {
  let mirror: ReturnType<NonNullable<ToolContext['ports']['terminal']['show']>> | undefined;
  // The terminal is shown to the user like the chat: it gets the same redacted text.
  const redact = toolRedactor(ctx.ports);
  try {
    mirror = ctx.ports.terminal.show?.(redact(job.command), job.cwd);
  } catch (e) {
    ctx.ports.log.warn(`terminal mirror failed: ${(e as Error).message}`);
  }
  if (!mirror) return;
  const m = mirror;
  const stream = redactingStream(redact, (s) => m.write(s));
  const write = (s: string) => stream.write(s);
  job.listeners.add(write);
  void job.done.then(() => {
    job.listeners.delete(write);
    stream.flush();
    m.end(statusLine(job));
  });
}

export const bashTool = defineTool({
  name: 'bash',
  kind: 'execute',
  permission: { subject: 'command', text: (i) => i.command },
  modes: ['agent'],
  description: [
    'Runs a shell command (bash -c) in the workspace root and returns its combined stdout/stderr, exit code and',
    'duration.',
    `Timeout: ${DEFAULT_TIMEOUT_MS / 1000} s by default, up to ${MAX_TIMEOUT_MS / 1000} s with the timeout`,
    'parameter (ms); on timeout the whole process tree is killed.',
    `Output beyond ${OUTPUT_CAP_CHARS} characters keeps its head and tail; the elided middle can be read with`,
    'bash_output.',
    'Commands do not share state between calls (each is a fresh shell), so chain dependent steps with && and use',
    'absolute or workspace-relative paths instead of cd.',
    'There is no terminal input: use non-interactive flags (e.g. --yes, -y, CI=1) and never start editors or pagers.',
    'For servers and watchers set run_in_background and check them with bash_output. Prefer grep, glob, read_file',
    'and ls over grep/find/cat/ls in bash.',
    'Commands usually run in a sandbox: they may write only the workspace, build caches and /tmp; agent and editor',
    'config (.git/hooks, .vscode, .mcp.json, …) stays read-only; secrets are hidden; the network reaches only',
    'allowed package registries through HTTP_PROXY. A refusal is named in the result ([sandbox] refused …); the',
    'user is offered to widen the box. Use outside_box only when the work truly needs it, with the reason.',
    commandShellNote(),
  ]
    .filter(Boolean)
    .join(' '),
  input,
  subject: (i) => i.command,
  async describeForApproval(i: Input, ctx) {
    const extras = [`in ${workspaceCwd(ctx)}`];
    if (i.run_in_background) extras.push('in the background');
    else extras.push(`timeout ${Math.round((i.timeout ?? DEFAULT_TIMEOUT_MS) / 1000)} s`);
    return `${i.description ? `${i.description}\n` : ''}$ ${i.command}\n(${extras.join(', ')})`;
  },
  async execute(i: Input, ctx) {
    let cwd: string;
    try {
      cwd = workspaceCwd(ctx);
    } catch (e) {
      return errorResult((e as Error).message);
    }
    const background = i.run_in_background ?? false;
    const timeoutMs = i.timeout ?? (background ? Number.POSITIVE_INFINITY : DEFAULT_TIMEOUT_MS);
    // Approved before it ran (an escape request always asks): the one run outside the box.
    const unboxed = outsideBoxReason('bash', i) !== undefined;
    const start = { command: i.command, cwd, timeoutMs, background, unboxed };
    const first = await run(ctx, i, start);
    const refusal = first.job?.boxRefusal;
    if (!refusal || background || ctx.signal.aborted) return first.result;
    const choice = await askAtTheEdge(ctx, i.command, refusal);
    if (choice === 'keep') return first.result;
    const again = await run(ctx, i, { ...start, unboxed: choice === 'outside' });
    const why =
      choice === 'outside' ? 'ran once outside the sandbox (the user approved)' : 'ran again in the widened sandbox';
    return { ...again.result, forModel: `${first.result.forModel}\n\n[${why}]\n${again.result.forModel}` };
  },
});

/** One run of the command (boxed or not): its job, and the result the model and the card get. */
async function run(
  ctx: ToolContext,
  i: Input,
  start: Parameters<typeof startCommand>[1],
): Promise<{ job?: Job; result: ToolResult }> {
  const jobs = jobsOf(ctx.session);
  // Rewind covers what the command changes: the checkpoint knows the workspace before it starts and
  // records what changed once it has ended (a background job: as far as it got by the turn's end).
  const afterCommand = await ctx.beforeCommand?.();
  let job: Job;
  try {
    job = await startCommand(ctx, start);
  } catch (e) {
    await afterCommand?.();
    return { result: errorResult(`Could not start the command: ${(e as Error).message}`) };
  }
  const covered = job.done.then(() => afterCommand?.());
  const background = start.background;
  mirrorToTerminal(ctx, job);
  if (background) {
    const text =
      `Started in the background as ${job.id}${job.pid ? ` (pid ${job.pid})` : ''}` +
      `${job.boxed ? ' in the sandbox' : ''}. ` +
      `Read its output with bash_output (bash_id "${job.id}"); stop it with kill_shell. It ends with the session at ` +
      'the latest.';
    return { job, result: { forModel: text, forUi: text, isError: false } };
  }
  const pump = progressPump(ctx);
  const listener = (s: string) => pump.push(s);
  job.listeners.add(listener);
  const onAbort = () => jobs.kill(job.id, 'killed');
  if (ctx.signal.aborted) onAbort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await job.done;
    await covered;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    job.listeners.delete(listener);
    pump.flush();
  }
  // Files that run later outside the box (package.json's scripts, .bin, configs): kept only if the user says so.
  const changes = job.runLater;
  job.runLater = undefined;
  job.runLaterNote = await settleRunLater(ctx, i.command, changes);
  const full = stripAnsi(job.output.text()).replace(/\r\n/g, '\n');
  const capped = capMiddle(
    full,
    OUTPUT_CAP_CHARS,
    (first, count) =>
      `the full output is kept: bash_output with bash_id "${job.id}", offset ${first}, limit ` +
      `${Math.min(count, 500)} pages through it`,
  );
  if (!capped.elided && job.output.droppedChars === 0) jobs.forget(job.id);
  job.readCursor = job.output.total;
  const status = statusLine(job);
  const aborted = ctx.signal.aborted ? '\n[aborted by the user]' : '';
  const body = capped.text.trim() === '' ? '(no output)' : capped.text.replace(/\n+$/, '');
  const text = `${body}\n${status}${aborted}`;
  const isError = job.status !== 'exited' || job.exitCode !== 0;
  return { job, result: { forModel: text, forUi: `$ ${i.command}\n${text}`, isError } };
}
