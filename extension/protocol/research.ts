// Research mode's shapes on the wire: the research kind of plan (question → sub-questions → queries),
// the progress of a run, and the verified report that ends it. The report is what the chat shows as
// a card (its Sources list, its notes), what the store keeps as an artifact and what is exported.
// A namespace import lets the webview bundle drop the parts of zod it never uses (e.g. locales).
import * as z from 'zod';

export const SearchProviderIdSchema = z.enum(['exa', 'tavily', 'brave', 'firecrawl']);

/** The fields a research plan has: what the research planner produces and "Approve plan" runs. */
export const ResearchPlanInputSchema = z.object({
  question: z.string().min(1).max(2000).describe('The question the research answers, restated precisely.'),
  subQuestions: z.array(z.string().min(1).max(500)).min(1).max(10).describe('What must be found out, 1 to 10.'),
  queries: z
    .array(
      z.object({
        query: z.string().min(1).max(400).describe('One web search query.'),
        provider: SearchProviderIdSchema.optional().describe('The search provider to use (default: the first).'),
      }),
    )
    .min(1)
    .max(12)
    .describe('The searches to run first, one query each, 1 to 12.'),
  expectedOutput: z.string().min(1).max(1000).describe('What the report will contain, in a sentence or two.'),
});
export type ResearchPlanInput = z.infer<typeof ResearchPlanInputSchema>;

export const ResearchPhaseSchema = z.enum([
  'planning',
  'searching',
  'reading',
  'evaluating',
  'writing',
  'verifying',
  'done',
]);
export type ResearchPhase = z.infer<typeof ResearchPhaseSchema>;

/** Where a run is: shown as the "Research progress" bar and in the VS Code progress notification. */
export const ResearchProgressSchema = z.object({
  phase: ResearchPhaseSchema,
  searchesDone: z.number().int().nonnegative(),
  searchesPlanned: z.number().int().nonnegative(),
  sourcesRead: z.number().int().nonnegative(),
  /** What is happening now, in a few words ("Searching: rust 2024 edition"). */
  detail: z.string().max(500).optional(),
});
export type ResearchProgress = z.infer<typeof ResearchProgressSchema>;

export const ReportSourceSchema = z.object({
  n: z.number().int().positive(),
  url: z.string(),
  title: z.string(),
  accessedAt: z.number(),
});
export type ReportSource = z.infer<typeof ReportSourceSchema>;

export const ClaimVerdictSchema = z.object({
  claim: z.string(),
  cites: z.array(z.number().int()),
  verdict: z.enum(['supported', 'unsupported', 'unchecked']),
  by: z.enum(['lexical', 'model']),
  coverage: z.number(),
  /** The lexical floor's decision (before the model judge) and its score; absent in older reports. */
  floor: z.object({ decision: z.enum(['kept', 'judge', 'rejected']), score: z.number() }).optional(),
  reason: z.string().optional(),
});
export type ClaimVerdictView = z.infer<typeof ClaimVerdictSchema>;

export const ReportSchema = z.object({
  id: z.string(),
  title: z.string(),
  question: z.string(),
  /** The verified report: Summary / Key findings / Conclusion, `[n]` citations, a numbered Sources section. */
  markdown: z.string(),
  sources: z.array(ReportSourceSchema),
  verdicts: z.array(ClaimVerdictSchema),
  /** What verification found and did, and how the run ended (time budget, empty searches, …). */
  notes: z.array(z.string()),
  stats: z.object({
    searches: z.number().int().nonnegative(),
    sourcesRead: z.number().int().nonnegative(),
    claims: z.number().int().nonnegative(),
    supported: z.number().int().nonnegative(),
    unsupported: z.number().int().nonnegative(),
    unchecked: z.number().int().nonnegative(),
    inventedRemoved: z.number().int().nonnegative(),
    unfetchedUrlsRemoved: z.number().int().nonnegative(),
  }),
  createdAt: z.number(),
  /** Written from the pages read when the run was stopped (by Stop, the time budget or a spending cap). */
  partial: z
    .object({
      reason: z.enum(['stopped', 'time', 'budget']),
      /** Why, in a sentence ("Stopped by you after 3 searches and 5 pages."). */
      detail: z.string(),
    })
    .optional(),
});
export type Report = z.infer<typeof ReportSchema>;
export type PartialReason = NonNullable<Report['partial']>['reason'];

/** How far a run is, 0..100 (the chat's bar and the VS Code notification agree): planning 5, searching
 *  and reading up to 75 by searches done of planned, writing 80, verifying 92, done 100. */
export function researchPercent(p: ResearchProgress): number {
  if (p.phase === 'planning') return 5;
  if (p.phase === 'writing') return 80;
  if (p.phase === 'verifying') return 92;
  if (p.phase === 'done') return 100;
  return Math.round(10 + 65 * Math.min(1, p.searchesDone / Math.max(1, p.searchesPlanned)));
}

const line = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

/** A research plan as Markdown: the card's text, the editor's document, the export. */
export function researchPlanToMarkdown(plan: ResearchPlanInput): string {
  const out = ['# Research plan', '', '## Question', '', plan.question.trim(), '', '## Sub-questions', ''];
  for (const [i, q] of plan.subQuestions.entries()) out.push(`${i + 1}. ${line(q)}`);
  out.push('', '## Queries', '');
  for (const q of plan.queries) out.push(`- ${line(q.query)}${q.provider ? ` (${q.provider})` : ''}`);
  out.push('', '## Expected output', '', plan.expectedOutput.trim());
  return `${out.join('\n')}\n`;
}

/** Reads a (possibly user-edited) research plan document back; undefined when it has no queries. */
export function researchPlanFromMarkdown(markdown: string): ResearchPlanInput | undefined {
  const sections = new Map<string, string[]>();
  let current = '';
  for (const raw of markdown.split(/\r?\n/)) {
    const h = /^#{1,6}\s+(.*)$/.exec(raw);
    if (h) {
      current = h[1].trim().toLowerCase();
      sections.set(current, []);
      continue;
    }
    sections.get(current)?.push(raw);
  }
  const text = (k: string) => (sections.get(k) ?? []).join('\n').trim();
  const items = (k: string) =>
    (sections.get(k) ?? [])
      .map((l) => /^\s*(?:[-*+]|\d+[.)])\s+(.+)$/.exec(l)?.[1]?.trim())
      .filter((s): s is string => Boolean(s));
  const queries = items('queries').map((q) => {
    const m = /^(.*?)\s*\((exa|tavily|brave|firecrawl)\)$/.exec(q);
    return m ? { query: m[1], provider: m[2] as z.infer<typeof SearchProviderIdSchema> } : { query: q };
  });
  const parsed = ResearchPlanInputSchema.safeParse({
    question: text('question'),
    subQuestions: items('sub-questions'),
    queries,
    expectedOutput: text('expected output') || 'A cited report answering the question.',
  });
  return parsed.success ? parsed.data : undefined;
}
