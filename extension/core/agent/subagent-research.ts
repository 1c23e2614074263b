// The built-in `researcher` sub-agent's body: Research mode's loop (plan → search → read → write →
// verify every citation against its page), not a model with web tools. It reaches the web through the
// same ResearchHost as Research mode (agent may import research; research never imports agent), runs
// on the task's prompt alone (scope: the web), spends inside the sub-agent's caps (its own dollar cap,
// the run's and the session's budgets), and gives the parent the verified report with its sources.
// The card's Stop ends the gathering and keeps a partial report from what was read; the parent's Stop
// aborts it outright. Research only reads, so it runs in Plan mode too.
import type { Report, SubagentStep, SubagentView } from '../../protocol';
import type { ResearchHost } from '../research/host';
import { ResearchStop } from '../research/loop/research-stop';
import type { ToolResult } from '../tools/types';
import type { RunBudget } from '../usage/budget';
import { researchRequest } from './research-request';
import type { Target } from './run-target';

/** Steps kept on the card (like the tool-running sub-agents' transcript cap). */
const MAX_STEPS_SHOWN = 200;
const MAX_TEXT_STEP = 4_000;

export interface ResearchSubagentRun {
  research: ResearchHost;
  target: Target;
  prompt: string;
  name: string;
  view: SubagentView;
  budget: RunBudget | undefined;
  /** Aborts the run (the parent's Stop, or the card's when nothing was read yet). */
  signal: AbortSignal;
  /** Where the card's Stop is routed: true when the run takes it and writes a partial report. */
  onSoftStop(take: () => boolean): void;
  /** The run's spending so far, live (its caps and the parent's budget count it). */
  spent(usage: NonNullable<SubagentView['usage']>): void;
  emit(force: boolean): void;
  now(): number;
  newId(): string;
}

export async function runResearchSubagent(r: ResearchSubagentRun): Promise<ToolResult> {
  const { view } = r;
  const steps = view.steps;
  const push = (s: SubagentStep) => {
    if (steps.length < MAX_STEPS_SHOWN) steps.push(s);
  };
  const stop = new ResearchStop();
  r.onSoftStop(() => stop.request());
  let report: Report | undefined;
  let answer = '';
  let lastDetail = '';
  let failed: string | undefined;
  try {
    const events = researchRequest({
      question: r.prompt,
      research: r.research,
      llm: { provider: r.target.provider, model: r.target.model },
      price: r.target.config.price,
      ...(r.budget ? { budget: r.budget } : {}),
      stop,
      // The task's prompt is the brief: the web, whatever the composer's research scope says.
      scope: 'web',
      signal: r.signal,
      now: r.now,
      newId: r.newId,
    });
    for await (const ev of events) {
      if (ev.type === 'research_progress') {
        const p = ev.progress;
        const detail = p.detail ?? p.phase;
        if (detail !== lastDetail) {
          lastDetail = detail;
          push({ kind: 'text', text: `[${detail} — ${p.searchesDone} searches, ${p.sourcesRead} pages read]\n` });
          r.emit(true);
        }
      } else if (ev.type === 'tool_started' || ev.type === 'tool_updated') {
        const { callId, name, subject, status } = ev.call;
        const at = steps.findIndex((s) => s.kind === 'tool' && s.callId === callId);
        if (at >= 0) steps[at] = { kind: 'tool', callId, name, subject, status };
        else push({ kind: 'tool', callId, name, subject, status });
        r.emit(true);
      } else if (ev.type === 'text_delta') {
        const last = steps.at(-1);
        if (last?.kind === 'text' && !last.text.startsWith('[') && last.text.length < MAX_TEXT_STEP)
          last.text += ev.text;
        else push({ kind: 'text', text: ev.text });
        r.emit(false);
      } else if (ev.type === 'usage') {
        // The loop reports its running total after each model call (planner, writer, claim checks).
        view.modelCalls++;
        view.usage = ev.usage;
        r.spent(ev.usage);
        r.emit(true);
      } else if (ev.type === 'report') {
        report = ev.report;
      } else if (ev.type === 'history') {
        for (const m of ev.messages) if (m.role === 'assistant') answer = m.text;
      } else if (ev.type === 'notice' || ev.type === 'budget_stop' || ev.type === 'failover') {
        push({ kind: 'text', text: `\n[${ev.text}]\n` });
        r.emit(true);
      }
    }
  } catch (err) {
    if (!r.signal.aborted) failed = err instanceof Error ? err.message : String(err);
  }
  if (report) push({ kind: 'text', text: `\n${report.markdown}\n` });
  view.status = failed
    ? 'error'
    : r.signal.aborted
      ? 'stopped'
      : report?.partial?.reason === 'stopped'
        ? 'stopped'
        : report?.partial?.reason === 'budget'
          ? 'budget'
          : 'done';
  r.emit(true);
  const spent = view.usage ? { spent: { usage: { ...view.usage }, costUsd: view.usage.costUsd } } : {};
  if (failed) return { forModel: `The sub-agent ${r.name} failed: ${failed}`, forUi: failed, isError: true, ...spent };
  if (!report) {
    const text = answer.trim() || (r.signal.aborted ? 'Stopped before a report was written.' : '(no report)');
    return {
      forModel: `Sub-agent ${r.name} ${r.signal.aborted ? 'was stopped' : 'finished'} without a report:\n\n${text}`,
      forUi: text,
      isError: r.signal.aborted,
      ...spent,
    };
  }
  return { forModel: reportForModel(r.name, report), forUi: report.markdown, isError: false, ...spent };
}

/** The verified report as the parent reads it: how it was checked, the report, its sources, its notes. */
export function reportForModel(name: string, report: Report): string {
  const s = report.stats;
  const how = report.partial
    ? `stopped early (${report.partial.detail}); its partial report`
    : 'finished; its verified research report';
  const sources = report.sources.map((src) => `[${src.n}] ${src.title} — ${src.url}`);
  const body = /\n#+\s*Sources\b/i.test(report.markdown)
    ? report.markdown
    : [report.markdown, '', 'Sources:', ...sources].join('\n');
  return [
    `Sub-agent ${name} ${how} (${s.searches} searches, ${s.sourcesRead} pages read; ${s.claims} claims ` +
      `checked against their pages: ${s.supported} supported, ${s.unsupported} unsupported, ` +
      `${s.inventedRemoved} invented citations removed). Cite its sources by URL:`,
    '',
    body.trim(),
    ...(report.notes.length ? ['', 'Notes:', ...report.notes.map((n) => `- ${n}`)] : []),
  ].join('\n');
}
