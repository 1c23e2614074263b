// bash_output: new output of a background job since the last read (optionally filtered by a
// regex), or any window of a job's kept output by line (paging through capped output).
import * as z from 'zod';
import { defineTool, errorResult } from './types';
import { capMiddle, cutLine, stripAnsi } from './util/cap';
import { jobsOf } from './util/session';
import { statusLine, OUTPUT_CAP_CHARS } from './bash';

const input = z.object({
  bash_id: z.string().describe('The job id returned by bash (e.g. "bash_3").'),
  filter: z
    .string()
    .optional()
    .describe('Regular expression: only lines matching it are returned (other new lines are consumed but not shown).'),
  offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Page mode: 1-based line of the kept output to start at (does not move the "new output" position).'),
  limit: z.number().int().min(1).max(5000).optional().describe('Page mode: how many lines to return (default 200).'),
});

export const bashOutputTool = defineTool({
  name: 'bash_output',
  kind: 'read',
  permission: { subject: 'text', text: (i) => i.bash_id },
  modes: ['agent'],
  description: [
    'Reads output of a shell job started by bash: by default the output produced since the last read, plus whether',
    'the job is still running and its exit code.',
    'filter keeps only lines matching a regular expression. offset/limit page through the whole kept output by line',
    'number (e.g. the elided middle of a long command output).',
  ].join(' '),
  input,
  subject: (i) => i.bash_id,
  async execute(i, ctx) {
    const jobs = jobsOf(ctx.session);
    const job = jobs.get(i.bash_id);
    if (!job) {
      const ids = jobs.list().map((j) => `${j.id} (${j.status})`);
      return errorResult(
        `No job ${i.bash_id}. ${ids.length ? `Known jobs: ${ids.join(', ')}.` : 'There are no jobs in this session.'}`,
      );
    }
    let re: RegExp | undefined;
    if (i.filter) {
      try {
        re = new RegExp(i.filter);
      } catch (e) {
        return errorResult(`filter is not a valid regular expression: ${(e as Error).message}`);
      }
    }
    const header = `${job.id}: ${job.command}\n${statusLine(job)}`;
    if (i.offset !== undefined || i.limit !== undefined) {
      const lines = stripAnsi(job.output.text()).replace(/\r\n/g, '\n').split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      const start = (i.offset ?? 1) - 1;
      const end = Math.min(lines.length, start + (i.limit ?? 200));
      const picked = lines
        .slice(start, end)
        .map((l, k) => ({ n: start + k + 1, l }))
        .filter((x) => !re || re.test(x.l));
      const body = picked.map((x) => `${String(x.n).padStart(6)}\t${cutLine(x.l, 2000)}`).join('\n');
      const more =
        end < lines.length
          ? `\n(Lines ${start + 1}–${end} of ${lines.length}. Continue with offset=${end + 1}.)`
          : `\n(Lines ${start + 1}–${end} of ${lines.length}.)`;
      const text = `${header}\n${body || '(no lines)'}${more}`;
      return { forModel: text, forUi: text, isError: false };
    }
    let fresh = job.output.sliceFrom(job.readCursor);
    // While running, hand out complete lines only; the partial last line comes next time.
    if (job.status === 'running') {
      const cut = fresh.lastIndexOf('\n');
      fresh = cut === -1 ? '' : fresh.slice(0, cut + 1);
    }
    job.readCursor += fresh.length;
    let lines = stripAnsi(fresh).replace(/\r\n/g, '\n').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    if (re) lines = lines.filter((l) => re.test(l));
    const capped = capMiddle(
      lines.join('\n'),
      OUTPUT_CAP_CHARS,
      () => 'use offset/limit to page through the kept output',
    );
    const body = lines.length ? capped.text : re ? '(no new lines match the filter)' : '(no new output)';
    const text = `${header}\n${body}`;
    return { forModel: text, forUi: text, isError: false };
  },
});
