// ask_user: multiple-choice questions answered in the chat; the turn waits, abort cancels.
import * as z from 'zod';
import { defineTool, errorResult } from './types';

const option = z.object({
  label: z.string().min(1).describe('Short choice text (1–5 words).'),
  description: z.string().optional().describe('What this choice means or implies.'),
});

const question = z.object({
  question: z.string().min(1).describe('The full question, ending with "?".'),
  header: z
    .string()
    .max(12)
    .optional()
    .describe('A very short label for the question (max 12 characters), e.g. "Auth method".'),
  options: z
    .array(option)
    .min(2)
    .max(4)
    .describe('2–4 distinct choices. Do not add an "Other" choice: one is added automatically with free text.'),
  multiSelect: z.boolean().optional().describe('Allow choosing several options (default false).'),
});

const input = z.object({
  questions: z.array(question).min(1).max(4).describe('1–4 questions asked together.'),
});

export const askUserTool = defineTool({
  name: 'ask_user',
  kind: 'read',
  permission: { subject: 'text', text: (i) => i.questions.map((q) => q.question).join('\n') },
  modes: ['agent'],
  description: [
    'Asks the user 1–4 multiple-choice questions and waits for the answers.',
    'Each question has 2–4 options; the user can always pick "Other" and type an answer.',
    'Use it to settle a real ambiguity or a preference that changes what you will do',
    '(which approach, which library, which files). Do not use it for things you can find out yourself.',
  ].join(' '),
  input,
  subject: (i) => i.questions.map((q) => q.header ?? q.question).join(' · '),
  async execute(i, ctx) {
    const questions = i.questions.map((q) => ({ ...q, multiSelect: q.multiSelect ?? false }));
    try {
      const answers = await ctx.ports.ask.ask(
        { callId: ctx.callId, sessionId: ctx.session.sessionId, questions },
        ctx.signal,
      );
      const lines = questions.map((q, k) => {
        const a = answers[k];
        const picked = [...(a?.selected ?? [])];
        if (a?.other) picked.push(`Other: "${a.other}"`);
        return `Q: ${q.question}\nA: ${picked.length ? picked.join(', ') : '(no answer)'}`;
      });
      const text = `The user answered:\n${lines.join('\n\n')}`;
      return { forModel: text, forUi: text, isError: false };
    } catch (e) {
      return errorResult(
        ctx.signal.aborted
          ? 'The question was cancelled (the request was stopped).'
          : `The question could not be asked: ${(e as Error).message}`,
      );
    }
  },
});
