// The research planner: the question → sub-questions and the first searches, as the research kind of
// plan. Research mode runs it as its first step; Plan Research shows it as a card to approve or edit
// first. A reply that is not a usable plan falls back to searching the question itself, said in a note.
import { ResearchPlanInputSchema, type ResearchPlanInput, type ResearchScope, type Usage } from '../../../protocol';
import plannerPrompt from '../../../../prompts/research-planner.md';
import { collectText, jsonObjectIn, type LlmTarget } from './llm-text';

/** What the planner is told beyond the question: where the run looks, and what a follow-up starts from. */
export interface PlanContext {
  scope?: ResearchScope;
  /** The workspace's readable files (relative paths), when the workspace is in scope. */
  files?: string[];
  /** A follow-up: the earlier report's question and the titles of the sources it read. */
  prior?: { question: string; sources: string[] };
}

export async function planResearch(
  question: string,
  llm: LlmTarget,
  limits: { minSearches: number; maxSearches: number },
  signal: AbortSignal,
  context: PlanContext = {},
): Promise<{ plan: ResearchPlanInput; usage?: Usage; note?: string }> {
  const fallback: ResearchPlanInput = {
    question: question.slice(0, 2000),
    subQuestions: [question.slice(0, 500)],
    queries: [{ query: question.slice(0, 400) }],
    expectedOutput: 'A cited report answering the question.',
  };
  try {
    const { text, usage } = await collectText(
      llm,
      {
        system: plannerPrompt.trim(),
        user: [
          `Question: ${question}`,
          `Plan between ${limits.minSearches} and ${limits.maxSearches} searches.`,
          ...contextLines(context),
        ].join('\n\n'),
      },
      signal,
    );
    const parsed = ResearchPlanInputSchema.safeParse(jsonObjectIn(text));
    if (parsed.success) {
      // Scope and filters are the user's; the planner's files only when the workspace is in scope.
      const { scope: _s, filters: _f, files, ...plan } = parsed.data;
      const known = new Set(context.files ?? []);
      // A file outside the workspace is kept only when the user's question names it (an absolute or
      // ../ path): it is then read only after the approval card asks (workspace-sources.ts).
      const named = (f: string) => /^(\/|[A-Za-z]:[\\/]|\.\.[\\/])/.test(f) && question.includes(f);
      const picked = (files ?? []).filter((f) => known.has(f) || (context.files && named(f))).slice(0, 8);
      return { plan: picked.length ? { ...plan, files: picked } : plan, usage };
    }
    return {
      plan: fallback,
      usage,
      note: 'The planner did not return a usable plan; the question itself was searched first.',
    };
  } catch (e) {
    if (signal.aborted) throw e;
    return {
      plan: fallback,
      note: `Planning failed (${(e as Error).message}); the question itself was searched first.`,
    };
  }
}

function contextLines(c: PlanContext): string[] {
  const out: string[] = [];
  if (c.scope === 'workspace') out.push("Scope: the user's workspace only (no web search).");
  else if (c.scope === 'both') out.push("Scope: the web and the user's workspace.");
  if (c.files?.length) out.push(`Workspace files:\n${c.files.slice(0, 300).join('\n')}`);
  if (c.prior)
    out.push(
      `Earlier report (this is a follow-up): ${c.prior.question}\nIts sources:\n` +
        c.prior.sources.map((t) => `- ${t}`).join('\n'),
    );
  return out;
}
