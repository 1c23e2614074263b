// bash: run a shell command in the workspace. Output is always captured from the child process
// (the VS Code terminal is only a mirror), capped head+tail for the model, kept whole for paging.
import * as z from 'zod';
import { commandShellNote } from './util/command-shell';
import { defineTool, errorResult, type ToolContext } from './types';
import { capMiddle, formatDuration, stripAnsi } from './util/cap';
import { jobsOf } from './util/session';
import type { Job } from './util/jobs';
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
    default:
      return job.exitCode === null
        ? `[terminated by ${job.signal ?? 'a signal'} after ${took}]`
        : `[exit code ${job.exitCode} · ${took}]`;
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
    const jobs = jobsOf(ctx.session);
    const background = i.run_in_background ?? false;
    const timeoutMs = i.timeout ?? (background ? Number.POSITIVE_INFINITY : DEFAULT_TIMEOUT_MS);
    // The command sees the host's environment without keys and secret-named variables.
    const env = ctx.ports.childEnv?.();
    const job = jobs.start({ command: i.command, cwd, timeoutMs, background, ...(env ? { env } : {}) });
    mirrorToTerminal(ctx, job);
    if (background) {
      const text =
        `Started in the background as ${job.id}${job.pid ? ` (pid ${job.pid})` : ''}. Read its output ` +
        `with bash_output (bash_id "${job.id}"); stop it with kill_shell. It ends with the session at the latest.`;
      return { forModel: text, forUi: text, isError: false };
    }
    const pump = progressPump(ctx);
    const listener = (s: string) => pump.push(s);
    job.listeners.add(listener);
    const onAbort = () => jobs.kill(job.id, 'killed');
    if (ctx.signal.aborted) onAbort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await job.done;
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      job.listeners.delete(listener);
      pump.flush();
    }
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
    return { forModel: text, forUi: `$ ${i.command}\n${text}`, isError };
  },
});
