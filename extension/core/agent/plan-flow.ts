// What happens to a proposed plan card: Approve runs it as a fresh request in the mode it was made for
// (Agent for a change plan, Research for a research plan) with the plan as its brief; Reject only marks
// it. The status travels as a `plan_status` event on a request id of its own.
import {
  type ChangePlanArtifact,
  findPlan,
  isEmptyGrant,
  narrowGrant,
  type PlanGrant,
  planGrantFromMarkdown,
  planGrantOf,
  planBrief,
  planToMarkdown,
  type PlanArtifact,
  type PlanStatus,
  type Report,
  type ResearchPlanArtifact,
  researchPlanFromMarkdown,
  stepTitlesFromMarkdown,
  type Todo,
} from '../../protocol';
import type { ChatServices } from './chat-services';
import type { CurrentChat } from './current-chat';
import { effectiveMode } from './modes';
import type { RequestRunner } from './request-runner';

export class PlanFlow {
  constructor(
    private readonly chat: CurrentChat,
    private readonly services: ChatServices,
    private readonly runner: RequestRunner,
  ) {}

  /** A plan card of the current session. */
  plan(planId: string): PlanArtifact | undefined {
    return findPlan(this.chat.session.chat, planId);
  }

  /** The research reports of the current session, newest first. */
  reports(): Report[] {
    const out: Report[] = [];
    for (const m of this.chat.session.chat.messages)
      for (const p of m.parts) if (p.type === 'report') out.unshift(p.report);
    return out;
  }

  /**
   * Approves a proposed plan and starts a fresh Agent request on it: the brief is the plan as
   * Markdown (or `editedText`, the user's edited copy), and the todo list starts from its steps.
   * `withGrant`: the run may also edit the files and run the commands the card said it grants (an edited
   * copy can only narrow that, never widen it); without it every such call asks as usual.
   */
  async approve(planId: string, requestId: string, editedText?: string, withGrant = false): Promise<boolean> {
    const { log } = this.services.host;
    const plan = this.plan(planId);
    if (plan?.status !== 'proposed') {
      log.warn(`no proposed plan ${planId} to approve`);
      return false;
    }
    if (plan.kind === 'research') return this.approveResearch(plan, requestId, editedText);
    if (effectiveMode('agent', this.chat.modeContext()) !== 'agent') {
      log.warn('cannot carry out a plan: Agent mode is not available here');
      return false;
    }
    this.setStatus(planId, 'approved'); // first, so a second click finds it approved
    await this.runner.abort();
    this.chat.setMode('agent');
    const text = editedText?.trim() ? editedText : planToMarkdown(plan);
    // An edited plan's own steps, when it still has a Steps list; else the proposed ones.
    const edited = editedText ? stepTitlesFromMarkdown(editedText) : [];
    const titles = edited.length ? edited : plan.steps.map((step) => step.title);
    const todos: Todo[] = titles.map((content, i) => ({ id: `p${i + 1}`, content, status: 'pending' }));
    const grant = withGrant ? grantOf(plan, editedText) : undefined;
    await this.runner.send(requestId, planBrief(text), 'agent', { todos, ...(grant ? { planGrant: grant } : {}) });
    return true;
  }

  /** Marks a proposed plan rejected; the model is not called. */
  reject(planId: string): boolean {
    const plan = this.plan(planId);
    if (plan?.status !== 'proposed') {
      this.services.host.log.warn(`no proposed plan ${planId} to reject`);
      return false;
    }
    this.setStatus(planId, 'rejected');
    return true;
  }

  /** Runs the researcher on an approved research plan (the edited document's plan when it still parses). */
  private async approveResearch(plan: ResearchPlanArtifact, requestId: string, editedText?: string): Promise<boolean> {
    if (effectiveMode('research', this.chat.modeContext()) !== 'research') {
      this.services.host.log.warn('cannot carry out a research plan: Research mode is not available here');
      return false;
    }
    this.setStatus(plan.id, 'approved');
    await this.runner.abort();
    this.chat.setMode('research');
    const edited = editedText ? researchPlanFromMarkdown(editedText) : undefined;
    const { id: _id, kind: _kind, status: _status, ...input } = plan;
    const chosen = edited ?? input;
    await this.runner.send(requestId, chosen.question, 'research', { researchPlan: chosen });
    return true;
  }

  private setStatus(planId: string, status: PlanStatus): void {
    // Its own request id: the plan's request has ended, and this is not a model request.
    this.chat.emit(`plan-${this.services.host.newId()}`, { type: 'plan_status', planId, status });
    this.chat.flush();
  }
}

/** What approving grants: the card's grant, narrowed by the user's edited copy when there is one. */
function grantOf(plan: ChangePlanArtifact, editedText: string | undefined): PlanGrant | undefined {
  const { files, commands } = planGrantOf(plan);
  const shown = { files, commands };
  const grant = editedText?.trim() ? narrowGrant(shown, planGrantFromMarkdown(editedText)) : shown;
  return isEmptyGrant(grant) ? undefined : grant;
}
