// Starting a command as a job, boxed when the sandbox is on: the launch comes from the sandbox port
// (core/sandbox/), the box is released when the job ends, and a failure the box caused is named on
// the job (`job.boxRefusal`), so the foreground result, bash_output and the edge prompt all say which
// rule refused what. The edge prompt itself is `askAtTheEdge`.
import { defaultChildEnv } from '../../security/child-env';
import { explainRefusal, refusalNote } from '../../sandbox/refusal';
import type { RunLaterChanges } from '../../sandbox/run-later';
import type { BoxRefusal } from '../../sandbox/types';
import type { ToolContext } from '../types';
import type { Job, StartOptions } from './jobs';
import { allowedInstall, undoRunLater } from './run-later-ask';
import { jobsOf } from './session';

export interface CommandStart {
  command: string;
  cwd: string;
  timeoutMs: number;
  background: boolean;
  /** The model asked to run it outside the box (and the user approved): no box this once. */
  unboxed: boolean;
}

/** Starts the job; boxed unless the sandbox is off, missing, or this run was approved outside it. */
export async function startCommand(ctx: ToolContext, s: CommandStart): Promise<Job> {
  const jobs = jobsOf(ctx.session);
  // The command sees the host's environment without keys and secret-named variables.
  const env = ctx.ports.childEnv?.() ?? defaultChildEnv();
  const base: StartOptions = { command: s.command, cwd: s.cwd, timeoutMs: s.timeoutMs, background: s.background, env };
  const sandbox = ctx.ports.sandbox;
  if (s.unboxed || !sandbox?.status().active) return jobs.start(base);
  const launch = await sandbox.launch({
    command: s.command,
    cwd: s.cwd,
    env,
    sessionId: ctx.session.sessionId,
    callId: ctx.callId ?? '',
    watchRunLater: true,
  });
  const install = allowedInstall(ctx, s.command);
  let job: Job | undefined;
  try {
    job = jobs.start({
      ...base,
      launch,
      onExit: () => {
        const connections = launch.connections();
        // What the box undid after the command (a replaced `.git` link) is reported even when it exited 0.
        const [undone] = launch.release();
        settleAtExit(job, launch.runLater?.(), install);
        if (undone && job) job.boxRefusal = undone;
        else if (job && (job.status !== 'exited' || job.exitCode !== 0)) {
          job.boxRefusal = explainRefusal({
            plan: launch.plan,
            output: job.output.text(),
            connections,
            existsOnHost: launch.existsOnHost,
          });
        }
      },
    });
  } catch (e) {
    launch.release();
    throw e;
  }
  job.boxed = true;
  return job;
}

/**
 * What a command changed in the files that run later: a foreground command's is asked about by the bash
 * tool (run-later-ask.ts); a background job's ends when no card can be shown any more, so it is undone
 * and said in its status (bash_output), unless it was an install the user allowed.
 */
function settleAtExit(job: Job | undefined, changes: RunLaterChanges | undefined, install: boolean): void {
  if (!job || !changes) return;
  if (install) changes.keep();
  else if (job.background) job.runLaterNote = undoRunLater(changes, 'a background job: no one to ask when it ended');
  else job.runLater = changes;
}

export type EdgeChoice = 'outside' | 'widened' | 'keep';

/**
 * "One prompt at the edge": the box refused something; the card names the rule and offers to run
 * this once outside the box, or (for a host or a folder) to widen the box with a narrow user rule.
 * Never taken silently: only the user's click does either.
 */
export async function askAtTheEdge(ctx: ToolContext, command: string, refusal: BoxRefusal): Promise<EdgeChoice> {
  const sandbox = ctx.ports.sandbox;
  // The administrator requires the box: "run once outside" is not on offer; the refusal stands.
  if (!sandbox || sandbox.status().required) return 'keep';
  const widen = refusal.widen;
  let answer: Awaited<ReturnType<ToolContext['ports']['approval']['request']>>;
  try {
    answer = await ctx.ports.approval.request(
      {
        callId: `${ctx.callId ?? 'bash'}:box`,
        sessionId: ctx.session.sessionId,
        tool: 'bash',
        kind: 'execute',
        subject: command,
        detail: refusalNote(refusal),
        reason: `the sandbox refused ${refusal.target}: ${refusal.rule}`,
        labels: {
          approve: 'Run once outside the box',
          deny: 'Keep the result',
          ...(widen ? { always: widen.label, alwaysWhere: `sextant.${widen.setting}` } : {}),
        },
        ...(widen ? { alwaysRule: widen.value } : {}),
      },
      ctx.signal,
    );
  } catch {
    return 'keep';
  }
  if (answer.decision === 'approve') return 'outside';
  if (answer.decision === 'always' && widen) {
    await sandbox.widen(refusal);
    return 'widened';
  }
  return 'keep';
}
