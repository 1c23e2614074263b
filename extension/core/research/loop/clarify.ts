// Clarify before searching: one cheap call (the planner model) decides whether the question is too
// ambiguous to research as asked; if so, up to three short questions go to the user through the
// ask-user form — the model's likely answers as choices, free text always possible through "Other",
// and "Just go" on every question. The answers join the question as the research brief.
import type { Question } from '../../../protocol';
import clarifyPrompt from '../../../../prompts/research-clarify.md';
import { collectText, jsonObjectIn } from './llm-text';
import type { ResearchRecord } from './research-record';

export const JUST_GO = 'Just go';

/** The question, with the user's clarifications appended when any were asked and answered. */
export async function clarifyQuestion(rec: ResearchRecord, question: string): Promise<string> {
  const port = rec.o.clarify;
  if (!port) return question;
  rec.progress('planning', 'Checking whether the question needs clarifying');
  const planner = rec.o.planner;
  let questions: Question[];
  try {
    const { text, usage } = await collectText(
      planner?.llm ?? rec.o.llm,
      { system: clarifyPrompt.trim(), user: `Question: ${question}`, maxTokens: 400 },
      rec.o.signal,
    );
    rec.addUsage(usage, planner ? planner.price : rec.o.price);
    questions = parseClarifying(text);
  } catch (e) {
    if (rec.o.signal.aborted) throw e;
    // Clarifying is a courtesy: a failing call must not stop the research.
    return question;
  }
  if (questions.length === 0) return question;
  const answers = await port.ask(questions, rec.o.signal);
  const lines: string[] = [];
  questions.forEach((q, k) => {
    const a = answers[k];
    const picked = (a?.selected ?? []).filter((s) => s !== JUST_GO);
    if (a?.other?.trim()) picked.push(a.other.trim());
    if (picked.length) lines.push(`- ${q.question} ${picked.join('; ')}`);
  });
  if (lines.length === 0) {
    rec.notes.push('Clarifying questions were offered and skipped ("Just go").');
    return question;
  }
  rec.notes.push(`The question was clarified before searching:\n${lines.join('\n')}`);
  return `${question}\n\nThe user clarified:\n${lines.join('\n')}`;
}

/** The model's questions as ask-user questions (at most 3), each ending with "Just go"; none when clear. */
export function parseClarifying(reply: string): Question[] {
  const v = jsonObjectIn(reply) as { clear?: unknown; questions?: unknown } | undefined;
  if (!v || v.clear === true || !Array.isArray(v.questions)) return [];
  const out: Question[] = [];
  for (const raw of v.questions.slice(0, 3)) {
    const q = raw as { question?: unknown; options?: unknown };
    if (typeof q.question !== 'string' || !q.question.trim()) continue;
    const options = (Array.isArray(q.options) ? q.options : [])
      .filter((o): o is string => typeof o === 'string' && o.trim() !== '' && o.trim() !== JUST_GO)
      .slice(0, 3)
      .map((label) => ({ label: label.trim().slice(0, 80) }));
    out.push({
      question: q.question.trim().slice(0, 300),
      header: `Clarify ${out.length + 1}`,
      // "Just go" is always there; a free-text question has it alone beside "Other".
      options: [...options, { label: JUST_GO, description: 'Start the research without answering' }].slice(0, 4),
      multiSelect: false,
    });
  }
  return out;
}
