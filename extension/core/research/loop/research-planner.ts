// The research planner: the question → sub-questions and the first searches, as the research kind of
// plan. Research mode runs it as its first step; Plan Research shows it as a card to approve or edit
// first. A reply that is not a usable plan falls back to searching the question itself, said in a note.
import { ResearchPlanInputSchema, type ResearchPlanInput, type Usage } from '../../../protocol';
import plannerPrompt from '../../../../prompts/research-planner.md';
import { collectText, jsonObjectIn, type LlmTarget } from './llm-text';

export async function planResearch(
  question: string,
  llm: LlmTarget,
  limits: { minSearches: number; maxSearches: number },
  signal: AbortSignal,
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
        user: `Question: ${question}\n\nPlan between ${limits.minSearches} and ${limits.maxSearches} searches.`,
      },
      signal,
    );
    const parsed = ResearchPlanInputSchema.safeParse(jsonObjectIn(text));
    if (parsed.success) return { plan: parsed.data, usage };
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
