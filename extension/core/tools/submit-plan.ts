// submit_plan: Plan mode's one way out. The model hands over a concrete plan (the Plan artifact of
// extension/protocol/plan.ts); the chat shows it as a card with Approve / Edit / Reject, and the turn
// ends. It changes nothing, so its kind is 'read'.
import { ChangePlanInputSchema } from '../../protocol';
import { defineTool } from './types';

export const PLAN_SUBMITTED = "Plan submitted for the user's review. Stop here: do not call more tools or add text.";

export const submitPlanTool = defineTool({
  name: 'submit_plan',
  kind: 'read',
  permission: { subject: 'text', text: (i) => i.goal },
  modes: ['plan'],
  description: [
    'Submits your finished plan for the user to review (Approve, Edit or Reject). Call it exactly once, after',
    'exploring the workspace with the read-only tools, with a concrete plan: the goal, ordered steps (1 to 20),',
    'the files it touches and how, the risks, and how to verify the result. Your turn ends when you call it.',
  ].join(' '),
  input: ChangePlanInputSchema,
  subject: (i) => `${i.steps.length} step${i.steps.length === 1 ? '' : 's'}: ${i.goal.slice(0, 80)}`,
  async execute(i, ctx) {
    ctx.planSubmitted?.(i);
    return { forModel: PLAN_SUBMITTED, forUi: 'Plan submitted for review.', isError: false };
  },
});
