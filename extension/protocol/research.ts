// Research mode's shapes on the wire: the research kind of plan (question → sub-questions → queries),
// the progress of a run, and the verified report that ends it. The report is what the chat shows as
// a card (its Sources list, its notes), what the store keeps as an artifact and what is exported.
// A namespace import lets the webview bundle drop the parts of zod it never uses (e.g. locales).
import * as z from 'zod';

export const SearchProviderIdSchema = z.enum(['exa', 'tavily', 'brave', 'firecrawl']);

/** Where a run looks: the web, the workspace's own files, or both. */
export const ResearchScopeSchema = z.enum(['web', 'workspace', 'both']);
export type ResearchScope = z.infer<typeof ResearchScopeSchema>;

/** A run's source filters: hosts to keep to or leave out, and how recent a page must be. */
export const SourceFiltersSchema = z.object({
  includeDomains: z.array(z.string().min(1).max(253)).max(50).optional(),
  excludeDomains: z.array(z.string().min(1).max(253)).max(50).optional(),
  /** Only pages published in the last N days. */
  recencyDays: z.number().int().positive().max(36500).optional(),
});
export type SourceFilters = z.infer<typeof SourceFiltersSchema>;

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
  files: z
    .array(z.string().min(1).max(500))
    .max(20)
    .optional()
    .describe('Workspace files (relative paths) to read as sources, when the workspace is in scope.'),
  scope: ResearchScopeSchema.optional().describe('Where the run looks (set by the user, not the planner).'),
  filters: SourceFiltersSchema.optional().describe('Source filters (set by the user, not the planner).'),
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
  /** Parallel sub-researchers, one per sub-question: where each is. */
  branches: z
    .array(
      z.object({
        question: z.string().max(500),
        status: z.enum(['waiting', 'searching', 'reading', 'summarising', 'done', 'stopped']),
        searches: z.number().int().nonnegative(),
        sources: z.number().int().nonnegative(),
      }),
    )
    .max(10)
    .optional(),
});
export type ResearchProgress = z.infer<typeof ResearchProgressSchema>;

export const ReportSourceSchema = z.object({
  n: z.number().int().positive(),
  url: z.string(),
  title: z.string(),
  accessedAt: z.number(),
  /** A workspace file cited as a source: its path relative to the workspace folder, and the lines cited. */
  path: z.string().optional(),
  lines: z.object({ start: z.number().int().positive(), end: z.number().int().positive() }).optional(),
});
export type ReportSource = z.infer<typeof ReportSourceSchema>;

/** The passage a claim rests on: its source's number, the quote and where it stands in the source. */
export const ClaimPassageSchema = z.object({
  n: z.number().int(),
  quote: z.string(),
  /** Character offsets of the quote in the source's stored text: `text.slice(start, end) === quote`. */
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  /** A workspace file: the lines the quote stands on. */
  lines: z.object({ start: z.number().int().positive(), end: z.number().int().positive() }).optional(),
});
export type ClaimPassage = z.infer<typeof ClaimPassageSchema>;

export const ClaimVerdictSchema = z.object({
  claim: z.string(),
  cites: z.array(z.number().int()),
  verdict: z.enum(['supported', 'unsupported', 'unchecked']),
  by: z.enum(['lexical', 'model']),
  coverage: z.number(),
  /** The lexical floor's decision (before the model judge) and its score; absent in older reports
   *  ("kept": an older report's word-overlap match, which the judge still read when there was one). */
  floor: z.object({ decision: z.enum(['pinned', 'judge', 'rejected', 'kept']), score: z.number() }).optional(),
  /** A supported claim: what verified it; absent in older reports. */
  verifiedBy: z.enum(['passage-match', 'judge']).optional(),
  passage: ClaimPassageSchema.optional(),
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
  /** Where the run looked and the source filters it applied (shown on the report). */
  scope: ResearchScopeSchema.optional(),
  filters: SourceFiltersSchema.optional(),
  /** A follow-up: the report it continued from (its sources were reused, not fetched again). */
  followsReport: z.string().optional(),
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
  if (plan.files?.length) {
    out.push('', '## Files', '');
    for (const f of plan.files) out.push(`- ${line(f)}`);
  }
  out.push('', '## Expected output', '', plan.expectedOutput.trim());
  if (plan.scope) out.push('', '## Scope', '', SCOPE_LABEL[plan.scope]);
  const filters = filterLines(plan.filters);
  if (filters.length) out.push('', '## Source filters', '', ...filters.map((f) => `- ${f}`));
  return `${out.join('\n')}\n`;
}

export const SCOPE_LABEL: Record<ResearchScope, string> = { web: 'Web', workspace: 'Workspace', both: 'Both' };

/** The filters in words, one line each ("Include domains: a.org, b.org"); empty when there are none. */
export function filterLines(f: SourceFilters | undefined): string[] {
  const out: string[] = [];
  if (f?.includeDomains?.length) out.push(`Include domains: ${f.includeDomains.join(', ')}`);
  if (f?.excludeDomains?.length) out.push(`Exclude domains: ${f.excludeDomains.join(', ')}`);
  if (f?.recencyDays) out.push(`Published within: ${f.recencyDays} days`);
  return out;
}

/** The filter lines of a plan document back into filters (unknown lines are ignored). */
function filtersFrom(lines: string[]): SourceFilters | undefined {
  const f: SourceFilters = {};
  const list = (v: string) =>
    v
      .split(/[,\s]+/)
      .map((d) => d.trim())
      .filter(Boolean)
      .slice(0, 50);
  for (const l of lines) {
    const m = /^(include domains|exclude domains|published within)\s*:\s*(.*)$/i.exec(l);
    if (!m) continue;
    const key = m[1].toLowerCase();
    if (key === 'include domains') f.includeDomains = list(m[2]);
    else if (key === 'exclude domains') f.excludeDomains = list(m[2]);
    else {
      const days = Number.parseInt(m[2], 10);
      if (days > 0) f.recencyDays = Math.min(36500, days);
    }
  }
  return f.includeDomains?.length || f.excludeDomains?.length || f.recencyDays ? f : undefined;
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
  const scopeText = text('scope').toLowerCase();
  const scope = (Object.keys(SCOPE_LABEL) as ResearchScope[]).find((k) => k === scopeText);
  const files = items('files');
  const filters = filtersFrom(items('source filters'));
  const parsed = ResearchPlanInputSchema.safeParse({
    question: text('question'),
    subQuestions: items('sub-questions'),
    queries,
    expectedOutput: text('expected output') || 'A cited report answering the question.',
    ...(files.length ? { files } : {}),
    ...(scope ? { scope } : {}),
    ...(filters ? { filters } : {}),
  });
  return parsed.success ? parsed.data : undefined;
}
