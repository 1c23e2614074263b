// A plan from Plan mode as a card: goal, numbered steps, files, risks and verification, with
// Approve (the Agent carries it out, with the grant the card states: plan-grant.ts), Approve without
// grant, Edit (opens it as a Markdown document; Approve then runs the
// edited text) and Reject. The buttons show only while the plan awaits review.
import { html, nothing, type TemplateResult } from 'lit';
import {
  filterLines,
  isEmptyGrant,
  type ParsedPlanGrant,
  planGrantOf,
  planGrantText,
  type ChangePlanArtifact,
  type PlanArtifact,
  type ResearchPlanArtifact,
  type ResearchScope,
} from '../../extension/protocol';
import { renderScopePicker } from './scope-picker';
import { type HostChannel, newRequestId } from '../host';
import { looksLikeDiff, renderDiff } from '../diff-lines';

const STATUS_LABELS: Record<PlanArtifact['status'], string> = {
  proposed: 'Awaiting review',
  approved: 'Approved',
  rejected: 'Rejected',
};

function list(title: string, items: TemplateResult[]): TemplateResult | typeof nothing {
  if (!items.length) return nothing;
  return html`<div class="plan-section"><h2>${title}</h2><ul>${items}</ul></div>`;
}

function changeBody(plan: ChangePlanArtifact): TemplateResult {
  return html`<p class="plan-goal">${plan.goal}</p>
    <div class="plan-section">
      <h2>Steps</h2>
      <ol class="plan-steps">
        ${plan.steps.map(
          (s) =>
            html`<li><span class="plan-step-title">${s.title}</span>${
              s.detail
                ? looksLikeDiff(s.detail)
                  ? renderDiff(s.detail, 'plan-step-detail')
                  : html`<div class="plan-step-detail">${s.detail}</div>`
                : nothing
            }</li>`,
        )}
      </ol>
    </div>
    ${list(
      'Files',
      plan.files.map((f) => html`<li><code>${f.path}</code> — ${f.change}</li>`),
    )}
    ${list(
      'Commands',
      (plan.commands ?? []).map((c) => html`<li><code>${c}</code></li>`),
    )}
    ${list(
      'Risks',
      plan.risks.map((r) => html`<li>${r}</li>`),
    )}
    ${list(
      'Verification',
      plan.verify.map((v) => html`<li>${v}</li>`),
    )}`;
}

/** A research plan: the question, what must be found out, the searches to run, what the report will hold. */
function researchBody(plan: ResearchPlanArtifact): TemplateResult {
  return html`<p class="plan-goal">${plan.question}</p>
    <div class="plan-section">
      <h2>Sub-questions</h2>
      <ol class="plan-steps">
        ${plan.subQuestions.map((q) => html`<li>${q}</li>`)}
      </ol>
    </div>
    ${list(
      'Searches',
      plan.queries.map((q) => html`<li><code>${q.query}</code>${q.provider ? html` · ${q.provider}` : nothing}</li>`),
    )}
    ${
      plan.files?.length
        ? list(
            'Workspace files',
            plan.files.map((f) => html`<li><code>${f}</code></li>`),
          )
        : nothing
    }
    <div class="plan-section"><h2>Expected output</h2><p>${plan.expectedOutput}</p></div>
    ${
      filterLines(plan.filters).length
        ? list(
            'Source filters (Edit plan to change them)',
            filterLines(plan.filters).map((f) => html`<li>${f}</li>`),
          )
        : nothing
    }`;
}

/** What approving grants for the run (plan-grant.ts), and what the plan names that will still ask. */
function renderGrant(grant: ParsedPlanGrant): TemplateResult | typeof nothing {
  const text = planGrantText(grant);
  if (!text && !grant.left.length) return nothing;
  return html`<div class="plan-grant" role="note" aria-label="What approving grants">
    ${text ? html`<p class="plan-grant-text">${text} Anything else asks.</p>` : nothing}
    ${
      grant.left.length
        ? html`<p class="plan-grant-left">Not granted (these ask as usual):</p>
            <ul class="plan-grant-left-list">
              ${grant.left.map((l) => html`<li><code>${l.entry}</code> — ${l.why}</li>`)}
            </ul>`
        : nothing
    }
  </div>`;
}

/** Approve (with the grant, when the plan asks for one) and Approve without it. */
function approveButtons(plan: PlanArtifact, post: HostChannel['post']): TemplateResult {
  const grant = plan.kind === 'change' ? planGrantOf(plan) : undefined;
  const approve = (withGrant: boolean) =>
    post({ type: 'approvePlan', planId: plan.id, requestId: newRequestId(), ...(withGrant ? { withGrant } : {}) });
  if (!grant || isEmptyGrant(grant))
    return html`<vscode-button @click=${() => approve(false)}>Approve plan</vscode-button>`;
  return html`<vscode-button
      title="Carry out the plan; the files and commands it names run without asking, for this run only"
      @click=${() => approve(true)}
      >Approve plan</vscode-button
    >
    <vscode-button
      secondary
      title="Carry out the plan; every edit and command asks as usual"
      @click=${() => approve(false)}
      >Approve without grant</vscode-button
    >`;
}

export function renderPlanCard(plan: PlanArtifact, host: HostChannel, scope?: ResearchScope): TemplateResult {
  const post = host.post.bind(host);
  return html`<section class="plan-card card status-${plan.status}" role="region" aria-label="Plan">
    <div class="plan-head">
      <span class="plan-title">${plan.kind === 'research' ? 'Research plan' : 'Plan'}</span>
      <span class="badge plan-status" role="status">${STATUS_LABELS[plan.status]}</span>
    </div>
    ${plan.kind === 'research' ? researchBody(plan) : changeBody(plan)}
    ${
      // The scope the approved plan will run with (the plan document's own "Scope" wins when edited).
      plan.kind === 'research' && plan.status === 'proposed' && scope
        ? renderScopePicker(plan.scope ?? scope, host, `sx-scope-${plan.id}`)
        : nothing
    }
    ${plan.kind === 'change' && plan.status === 'proposed' ? renderGrant(planGrantOf(plan)) : nothing}
    ${
      plan.status === 'proposed'
        ? html`<div class="actions plan-actions">
            ${approveButtons(plan, post)}
            <vscode-button secondary @click=${() => post({ type: 'editPlan', planId: plan.id })}
              >Edit plan</vscode-button
            >
            <vscode-button secondary @click=${() => post({ type: 'rejectPlan', planId: plan.id })}
              >Reject plan</vscode-button
            >
          </div>`
        : nothing
    }
  </section>`;
}
