// The partial report: what a research run delivers when a Stop, the time budget or a spending cap ends
// the gathering. It has its own small budget so that ending early stays quick and cheap whatever the run
// spent, and it names every page read, cited or not, so nothing found is lost.
import type { PartialReason, ResearchPlanInput } from '../../../protocol';
import writerPrompt from '../../../../prompts/researcher.md';
import { verifyReport } from '../verify';
import { normaliseUrl } from '../verify/citations';
import { collectText } from './llm-text';
import type { ResearchRecord } from './research-record';
import { deliverReport, sourceMaterial } from './research-report';
import type { ResearchOutcome } from './research-run-types';

/**
 * The partial report's own small budget: one short call, this much page text, this many output tokens,
 * this long. It runs after a Stop or a cap, so it must be quick and cheap whatever the run spent.
 */
const PARTIAL_CHARS_PER_SOURCE = 2_500;
const PARTIAL_CHARS_TOTAL = 20_000;
const PARTIAL_MAX_TOKENS = 1_200;
const PARTIAL_TIMEOUT_MS = 60_000;

/**
 * The report after a Stop, the time budget or a spending cap: one short call on the pages read so far,
 * within its own small budget (page text, output tokens, time), checked by words and figures only (no
 * model judge: the run was asked to end). When that call fails, the report lists what was read.
 */
export async function writePartial(
  rec: ResearchRecord,
  plan: ResearchPlanInput,
  why: { reason: PartialReason; detail: string },
): Promise<ResearchOutcome> {
  const { o } = rec;
  rec.progress('writing', 'Writing a short report from the pages read so far');
  const user = [
    `Question: ${plan.question}`,
    `The research was ended early (${why.detail}) Write a short report from these sources only: the ` +
      'Summary and the Key findings they support, and in the Conclusion say plainly what was not covered.',
    `Sources (${rec.sources.length}):\n\n${sourceMaterial(rec, PARTIAL_CHARS_PER_SOURCE, PARTIAL_CHARS_TOTAL)}`,
  ].join('\n\n');
  const limit = new AbortController();
  const timer = setTimeout(() => limit.abort(), PARTIAL_TIMEOUT_MS);
  const signal = AbortSignal.any([o.signal, limit.signal]);
  let draft = '';
  const notes: string[] = [`Partial report: ${why.detail} It was written in one short call from the pages read.`];
  try {
    const { text, usage } = await collectText(
      o.llm,
      { system: writerPrompt.trim(), user, maxTokens: PARTIAL_MAX_TOKENS },
      signal,
      (t) => rec.out.push({ type: 'text_delta', text: t }),
    );
    rec.addUsage(usage, o.price);
    draft = text;
  } catch (e) {
    if (o.signal.aborted) return { kind: 'aborted' };
    const message = limit.signal.aborted ? `it took longer than ${seconds(PARTIAL_TIMEOUT_MS)}` : (e as Error).message;
    notes.push(`The short report could not be written (${message}); the pages read are listed instead.`);
  } finally {
    clearTimeout(timer);
  }
  if (o.signal.aborted) return { kind: 'aborted' };
  if (!draft.trim())
    draft = `# ${plan.question.slice(0, 120)}\n\nNo report was written; the pages read are listed below.`;
  rec.progress('verifying', 'Checking every citation against its page');
  const verified = await verifyReport(draft, rec.sources, { signal: o.signal });
  if (o.signal.aborted) return { kind: 'aborted' };
  // Nothing read is lost: the pages the short report does not cite are named too.
  const cited = new Set(verified.sources.map((s) => normaliseUrl(s.url)));
  for (const s of rec.sources)
    if (!cited.has(normaliseUrl(s.finalUrl ?? s.url)))
      notes.push(`Also read (not cited): ${s.title} — ${s.finalUrl ?? s.url}`);
  return deliverReport(rec, plan, verified, notes, why);
}

/** A duration for the notes: tenths of a second below ten seconds, whole seconds above. */
export function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}
