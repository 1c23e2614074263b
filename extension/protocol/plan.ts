// The Plan artifact: what Plan mode's submit_plan tool takes as input, what the chat shows as a plan
// card, what the store keeps and exports, and what an approved plan hands to Agent mode as its brief.
// `kind` leaves room for other artifacts of the same shape family (a research plan, later).
// A namespace import lets the webview bundle drop the parts of zod it never uses (e.g. locales).
import * as z from 'zod';
import { ResearchPlanInputSchema, researchPlanToMarkdown } from './research';

export const PlanStepSchema = z.object({
  title: z.string().min(1).max(300).describe('The step, in the imperative ("Add a parser for …").'),
  detail: z.string().max(4000).optional().describe('How, concretely: functions, commands, edge cases.'),
});

export const PlanFileSchema = z.object({
  path: z.string().min(1).max(1000).describe('Workspace-relative path of a file to create, change or delete.'),
  change: z.string().min(1).max(2000).describe('What changes in it, in a sentence or two.'),
});

/** The fields every change plan has; the input of submit_plan. */
export const ChangePlanInputSchema = z.object({
  goal: z.string().min(1).max(2000).describe('What the change achieves, in one or two sentences.'),
  steps: z.array(PlanStepSchema).min(1).max(20).describe('Ordered steps, 1 to 20.'),
  files: z.array(PlanFileSchema).max(100).describe('Files the change touches (may be empty).'),
  risks: z.array(z.string().min(1).max(1000)).max(30).describe('What could go wrong or needs care (may be empty).'),
  verify: z
    .array(z.string().min(1).max(1000))
    .max(30)
    .describe('How to check the change worked: commands to run, behaviour to try (may be empty).'),
  commands: z
    .array(z.string().min(1).max(500))
    .max(20)
    .optional()
    .describe(
      'Exact shell commands the change needs run (tests, build, lint), one simple command each, e.g. "npm test". ' +
        'Approving the plan may let them run without asking; no chains, pipes, redirections or quotes.',
    ),
});
export type ChangePlanInput = z.infer<typeof ChangePlanInputSchema>;

export const PlanStatusSchema = z.enum(['proposed', 'approved', 'rejected']);
export type PlanStatus = z.infer<typeof PlanStatusSchema>;

/**
 * A plan artifact as the chat holds it, a discriminated union on `kind`: a change plan (Plan mode,
 * carried out by Agent mode) or a research plan (Plan Research, carried out by the researcher).
 */
export const PlanArtifactSchema = z.discriminatedUnion('kind', [
  ChangePlanInputSchema.extend({
    kind: z.literal('change'),
    id: z.string(),
    status: PlanStatusSchema,
  }),
  ResearchPlanInputSchema.extend({
    kind: z.literal('research'),
    id: z.string(),
    status: PlanStatusSchema,
  }),
]);
export type PlanArtifact = z.infer<typeof PlanArtifactSchema>;
export type ChangePlanArtifact = Extract<PlanArtifact, { kind: 'change' }>;
export type ResearchPlanArtifact = Extract<PlanArtifact, { kind: 'research' }>;

const bullet = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

/** The plan as Markdown: the card's text, the brief handed to Agent mode, the export, the editor's document. */
export function planToMarkdown(plan: ChangePlanInput): string {
  const out = ['# Plan', '', '## Goal', '', plan.goal.trim(), '', '## Steps', ''];
  plan.steps.forEach((s, i) => {
    out.push(`${i + 1}. ${bullet(s.title)}`);
    if (s.detail?.trim())
      out.push(
        ...s.detail
          .trim()
          .split('\n')
          .map((l) => (l.trim() ? `   ${l}` : '')),
      );
  });
  if (plan.files.length) {
    out.push('', '## Files', '');
    for (const f of plan.files) out.push(`- \`${f.path.replace(/`/g, "'")}\` — ${bullet(f.change)}`);
  }
  if (plan.commands?.length) {
    out.push('', '## Commands', '');
    for (const c of plan.commands) out.push(`- \`${bullet(c).replace(/`/g, "'")}\``);
  }
  if (plan.risks.length) {
    out.push('', '## Risks', '');
    for (const r of plan.risks) out.push(`- ${bullet(r)}`);
  }
  if (plan.verify.length) {
    out.push('', '## Verification', '');
    for (const v of plan.verify) out.push(`- ${bullet(v)}`);
  }
  return `${out.join('\n')}\n`;
}

/** Any plan as Markdown, by its kind. */
export function planArtifactToMarkdown(plan: PlanArtifact): string {
  return plan.kind === 'research' ? researchPlanToMarkdown(plan) : planToMarkdown(plan);
}

/**
 * The step titles of a plan in Markdown (the numbered items under "## Steps"), so the todo list
 * follows a plan the user edited. Empty when there is no such section.
 */
export function stepTitlesFromMarkdown(markdown: string): string[] {
  const titles: string[] = [];
  let inSteps = false;
  for (const line of markdown.split(/\r?\n/)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      inSteps = /^steps\b/i.test(heading[1].trim());
      continue;
    }
    const item = inSteps ? /^ {0,3}\d+[.)]\s+(.+)$/.exec(line) : null;
    if (item && titles.length < 20) titles.push(item[1].trim());
  }
  return titles;
}

/** The user turn that starts the Agent on an approved plan (the plan text may have been edited). */
export function planBrief(planMarkdown: string): string {
  return [
    'Carry out this approved plan. Follow its steps in order, keep the todo list up to date as you go,',
    'run the verification it lists, and tell me briefly what you changed. If a step turns out to be wrong,',
    'say so and adapt rather than forcing it.',
    '',
    planMarkdown.trim(),
  ].join('\n');
}
