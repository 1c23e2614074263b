// kill_shell: stop a background job and its child processes.
import * as z from 'zod';
import { defineTool, errorResult } from './types';
import { jobsOf } from './util/session';
import { statusLine } from './bash';

const input = z.object({
  shell_id: z.string().describe('The job id returned by bash with run_in_background (e.g. "bash_2").'),
});

export const killShellTool = defineTool({
  name: 'kill_shell',
  kind: 'execute',
  permission: { subject: 'text', text: (i) => i.shell_id },
  modes: ['agent'],
  description:
    'Stops a background shell job started by bash (the whole process tree: SIGTERM, then SIGKILL after 2 s) and ' +
    'reports its last state.',
  input,
  subject: (i) => i.shell_id,
  async describeForApproval(i, ctx) {
    const job = jobsOf(ctx.session).get(i.shell_id);
    return job ? `Stop ${job.id}: $ ${job.command}` : `Stop ${i.shell_id} (no such job)`;
  },
  async execute(i, ctx) {
    const jobs = jobsOf(ctx.session);
    const job = jobs.get(i.shell_id);
    if (!job) {
      const known = jobs
        .list()
        .map((j) => `${j.id} (${j.status})`)
        .join(', ');
      return errorResult(`No job ${i.shell_id}. Known jobs: ${known || 'none'}.`);
    }
    if (job.status !== 'running') {
      const msg = `${job.id} is not running any more ${statusLine(job)}.`;
      return { forModel: msg, forUi: msg, isError: false };
    }
    jobs.kill(job.id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([job.done, new Promise((r) => (timer = setTimeout(r, 3000)))]);
    clearTimeout(timer);
    const msg = `Stopped ${job.id} (${job.command}) ${statusLine(job)}.`;
    return { forModel: msg, forUi: msg, isError: false };
  },
});
