// The writing half of a research run: the writer's call on the pages read, the check of every citation
// against its page, and the delivered report (or, when no page could be read, the message saying so).
// The partial report after a Stop, the time budget or a cap shares the page material and the delivery.
import { filterLines, type Report, type ResearchPlanInput } from '../../../protocol';
import type { Findings } from './sub-researchers';
import writerPrompt from '../../../../prompts/researcher.md';
import { verifyReport, type ClaimJudge, type VerifiedReport } from '../verify';
import { collectText } from './llm-text';
import type { ResearchRecord } from './research-record';
import type { ResearchOutcome } from './research-run-types';

/** Page text handed to the writer per source, and in all. */
const WRITER_CHARS_PER_SOURCE = 6_000;
const WRITER_CHARS_TOTAL = 60_000;
const FINDINGS_CHARS_PER_SOURCE = 2_500;

export async function writeAndVerify(
  rec: ResearchRecord,
  plan: ResearchPlanInput,
  findings?: Findings[],
): Promise<ResearchOutcome> {
  const { o } = rec;
  rec.progress('writing', 'Writing the report');
  // With sub-researchers the writer works from their findings; the pages follow, shorter, to quote from.
  const perSource = findings?.length ? FINDINGS_CHARS_PER_SOURCE : WRITER_CHARS_PER_SOURCE;
  const user = [
    `Question: ${plan.question}`,
    `Expected output: ${plan.expectedOutput}`,
    ...(o.prior
      ? [
          `This follows up an earlier report ("${o.prior.question}"). Its sources keep their numbers; cite ` +
            'them and the new ones alike.',
        ]
      : []),
    ...(findings?.length
      ? [
          `Findings of the sub-researchers (each cites the sources below):\n\n${findings
            .map((f) => `### ${f.question}\n${f.text || '(no summary)'}`)
            .join('\n\n')}`,
        ]
      : []),
    `Sources (${rec.sources.length}):\n\n${sourceMaterial(rec, perSource, WRITER_CHARS_TOTAL)}`,
  ].join('\n\n');
  const { text: draft, usage } = await collectText(o.llm, { system: writerPrompt.trim(), user }, o.signal, (t) =>
    rec.out.push({ type: 'text_delta', text: t }),
  );
  rec.addUsage(usage, o.price);
  if (o.signal.aborted) return { kind: 'aborted' };
  rec.progress('verifying', 'Checking every citation against its page');
  // The claim checks' calls (the fast model's) are counted with the run's own.
  const inner = o.judge;
  const judge: ClaimJudge | undefined = inner
    ? async (input, signal) => {
        const verdict = await inner(input, signal);
        if (verdict.spent) rec.addSpent(verdict.spent.usage, verdict.spent.costUsd);
        return verdict;
      }
    : undefined;
  const verified = await verifyReport(draft, rec.sources, { judge, signal: o.signal, keepNumbers: Boolean(o.prior) });
  if (o.signal.aborted) return { kind: 'aborted' };
  return deliverReport(rec, plan, verified, []);
}

/** Page text for the writer: the pages read, in order, each cut to `perSource`, all to `total`. */
export function sourceMaterial(rec: ResearchRecord, perSource: number, total: number): string {
  let left = total;
  return rec.sources
    .map((s) => {
      const take = Math.max(0, Math.min(perSource, left));
      left -= take;
      const where = s.path ? `File: ${s.path}, lines ${s.lines?.start}–${s.lines?.end}` : `URL: ${s.finalUrl ?? s.url}`;
      return `Source [${s.n}]: ${s.title}\n${where}\n\n${s.text.slice(0, take)}`;
    })
    .join('\n\n---\n\n');
}

export function deliverReport(
  rec: ResearchRecord,
  plan: ResearchPlanInput,
  verified: VerifiedReport,
  notes: string[],
  partial?: Report['partial'],
): ResearchOutcome {
  const { o } = rec;
  const id = `report-${o.newId()}`;
  const v = verified.stats;
  const scope = plan.scope ?? o.scope;
  const filters = rec.filters;
  const filterNote = filterLines(filters);
  if (filterNote.length)
    notes.push(
      `Source filters: ${filterNote.join('; ')}` +
        (rec.filteredOut ? ` (${rec.filteredOut} search result(s) outside them removed).` : '.'),
    );
  if (o.prior) {
    const reused = rec.sources.filter((s) => o.prior?.sources.some((p) => p.n === s.n && p.text === s.text)).length;
    notes.push(`Follow-up on an earlier report: ${reused} of its sources reused without fetching them again.`);
  }
  rec.out.push({
    type: 'report',
    report: {
      id,
      title: reportTitle(verified.markdown) ?? plan.question.slice(0, 120),
      question: plan.question,
      markdown: verified.markdown,
      sources: verified.sources,
      verdicts: verified.verdicts,
      notes: [...notes, ...verified.notes, ...rec.notes],
      stats: {
        searches: rec.searchesRun.length,
        sourcesRead: rec.sources.length,
        claims: v.claims,
        supported: v.supported,
        unsupported: v.unsupported,
        unchecked: v.unchecked,
        inventedRemoved: v.inventedRemoved,
        unfetchedUrlsRemoved: v.unfetchedUrlsRemoved,
      },
      createdAt: o.now(),
      ...(scope ? { scope } : {}),
      ...(filterNote.length ? { filters } : {}),
      ...(o.prior ? { followsReport: o.prior.reportId } : {}),
      ...(partial ? { partial } : {}),
    },
  });
  // A follow-up continues from every source read, numbered as this report numbers the cited ones.
  const renumber = new Map<number, number>();
  for (const s of verified.sources) {
    const src = rec.sources.find((x) => (x.finalUrl ?? x.url) === s.url);
    if (src) renumber.set(src.n, s.n);
  }
  let next = Math.max(0, ...verified.sources.map((s) => s.n)) + 1;
  o.remember?.({
    reportId: id,
    question: plan.question,
    sources: rec.sources.map((s) => ({ ...s, n: renumber.get(s.n) ?? next++ })),
  });
  rec.progress('done');
  rec.out.push({
    type: 'history',
    // The controller adds the user's message before the first history it records.
    messages: [{ role: 'assistant', text: verified.markdown }],
  });
  return { kind: 'reported', reportId: id };
}

export function reportNothingFound(rec: ResearchRecord): ResearchOutcome {
  const text = [
    `I could not find sources to answer this: ${rec.searchesRun.length} searches found no page that could be read.`,
    ...rec.notes.map((n) => `- ${n}`),
    '',
    'Try a more specific question, other words, or another search provider (sextant.research.searchProviders).',
  ].join('\n');
  rec.out.push({ type: 'text_delta', text });
  rec.progress('done');
  rec.out.push({
    type: 'history',
    messages: [{ role: 'assistant', text }],
  });
  return { kind: 'nothing_found' };
}

/** The report's title: its first level-1 heading (emphasis removed), if it has one. */
export function reportTitle(markdown: string): string | undefined {
  const h = /^\s{0,3}#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1];
  const title = h?.replace(/[*_`]+/g, '').trim();
  return title || undefined;
}
