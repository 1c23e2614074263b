// What the agent is waiting for or working through, shown between the conversation and the
// composer: approval cards (several edits of one step on one card: edit-batch.ts), ask-user forms
// and the live todo list.
import { html, nothing } from 'lit';
import type { PendingApproval, Todo } from '../../extension/protocol';
import type { Topic } from '../store';
import { revealInvisible } from '../invisible';
import { renderDiff } from '../diff-lines';
import { LightElement, defineElement } from './base';
import { approvalNotes, isBatchableEdit, renderEditBatch, restOfTurnButton } from './edit-batch';
import './question-form';
import './rewind-panel';

const TODO_MARKS: Record<Todo['status'], string> = { pending: '○', in_progress: '◐', completed: '●' };
const TODO_LABELS: Record<Todo['status'], string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
};

export class SxPanels extends LightElement {
  /** Approvals already answered here, so a double click cannot send two decisions. */
  private readonly decided = new Set<string>();
  private readonly reasons = new Map<string, string>();

  protected override topics(): Topic[] {
    return ['panels'];
  }

  private decide(a: PendingApproval, decision: 'approve' | 'deny' | 'always' | 'rest-of-turn'): void {
    if (!this.ctx || this.decided.has(a.callId)) return;
    this.decided.add(a.callId);
    const reason = decision === 'deny' ? this.reasons.get(a.callId)?.trim() : undefined;
    const { callId } = a;
    this.ctx.host.post(
      decision === 'rest-of-turn'
        ? { type: 'approval', callId, decision: 'approve', restOfTurn: true }
        : { type: 'approval', callId, decision, ...(reason ? { reason } : {}) },
    );
    this.requestUpdate();
  }

  /** Two or more plain edits pending at once (one step's) share one card (edit-batch.ts). */
  private renderApprovals(approvals: PendingApproval[]): unknown {
    const edits = approvals.filter(isBatchableEdit);
    if (edits.length < 2) return approvals.map((a) => this.renderApproval(a));
    const first = approvals.indexOf(edits[0]);
    const batch = renderEditBatch(edits, {
      decided: (a) => this.decided.has(a.callId),
      decide: (a, d) => this.decide(a, d),
      openDiff: (a) => this.ctx?.host.post({ type: 'openDiff', callId: a.callId }),
    });
    return approvals.map((a, i) => (i === first ? batch : edits.includes(a) ? nothing : this.renderApproval(a)));
  }

  private renderApproval(a: PendingApproval): unknown {
    const done = this.decided.has(a.callId);
    const verb = a.kind === 'execute' ? 'run' : a.kind === 'write' ? 'change' : a.kind === 'network' ? 'fetch' : 'read';
    // What will run or change comes first, exactly and with hidden characters made visible; the
    // tool's own description (a diff, the working folder) comes below it.
    const subject = revealInvisible(a.subject);
    // A file change shows its own compact diff (with counts above it) instead of the generic detail.
    const shownDetail = a.change ? a.change.diff : a.detail;
    const detail = shownDetail && shownDetail !== a.subject ? revealInvisible(shownDetail) : undefined;
    const inFiles = a.changeSet?.files.reduce((n, f) => n + revealInvisible(f.diff).count, 0) ?? 0;
    const hidden = subject.count + (detail?.count ?? 0) + inFiles;
    return html`<section class="approval card" role="group" aria-label=${`Approval: ${a.tool}`}>
      <div class="approval-head">${
        a.subagent ? html`<span class="approval-subagent">Sub-agent <strong>${a.subagent}</strong>: </span>` : nothing
      }<strong>${a.tool}</strong> wants to ${verb}:</div>
      <pre class="approval-subject">${subject.text}</pre>
      ${approvalNotes(a, hidden)}
      ${a.change ? this.renderChange(a, a.change) : nothing}
      ${detail && a.change ? this.renderDiff(detail.text) : nothing}
      ${a.changeSet ? this.renderChangeSet(a, a.changeSet) : nothing}
      ${detail && !a.change && !a.changeSet ? html`<pre class="approval-detail">${detail.text}</pre>` : nothing}
      <input
        class="deny-reason"
        type="text"
        aria-label="Reason for denying (optional)"
        placeholder="Reason for denying (optional)"
        ?disabled=${done}
        @input=${(e: Event) => this.reasons.set(a.callId, (e.target as HTMLInputElement).value)}
      />
      <div class="actions">
        <vscode-button ?disabled=${done} @click=${() => this.decide(a, 'approve')}
          >${a.labels?.approve ?? 'Approve'}</vscode-button
        >
        <vscode-button secondary ?disabled=${done} @click=${() => this.decide(a, 'deny')}
          >${a.labels?.deny ?? 'Deny'}</vscode-button
        >
        ${a.restOfTurn ? restOfTurnButton(a, done, () => this.decide(a, 'rest-of-turn')) : nothing}
        ${a.alwaysRule ? this.renderAlways(a, a.alwaysRule, done) : nothing}
      </div>
    </section>`;
  }

  /**
   * A change of several files (rename), approved or denied as one: each file with its counts, its
   * "Open diff" and its diff, then what the proposal left out and what happened since.
   */
  private renderChangeSet(a: PendingApproval, set: NonNullable<PendingApproval['changeSet']>): unknown {
    const n = set.files.length;
    return html`<p class="approval-reason">
        ${n} file${n === 1 ? '' : 's'}: Approve writes all of them, Deny none.
      </p>
      <ul class="change-files" aria-label="Changed files">
        ${set.files.map(
          (c) => html`<li>
            ${this.renderFileLine(a, c, true)}
            ${c.diff ? this.renderDiff(revealInvisible(c.diff).text) : nothing}
          </li>`,
        )}
      </ul>
      ${set.note ? html`<p class="approval-note">${set.note}</p>` : nothing}
      ${this.renderSince(a)}`;
  }

  /** Path, +/− counts and "Open diff" (of that file, in a change of several). */
  private renderFileLine(a: PendingApproval, c: NonNullable<PendingApproval['change']>, named: boolean): unknown {
    return html`<div class="approval-change">
        <span class="change-path">${c.path}</span>
        ${c.isNew ? html`<span class="change-new">new file</span>` : nothing}
        <span class="diff-added" aria-label=${`${c.added} lines added`}>+${c.added}</span>
        ${
          c.isNew
            ? nothing
            : html`<span class="diff-removed" aria-label=${`${c.removed} lines removed`}>−${c.removed}</span>`
        }
        <vscode-button
          secondary
          aria-label=${named ? `Open diff of ${c.path}` : nothing}
          title="Show this change in the editor's diff view, where you can also edit the proposal"
          @click=${() =>
            this.ctx?.host.post({ type: 'openDiff', callId: a.callId, ...(named ? { path: c.path } : {}) })}
          >Open diff</vscode-button
        >
      </div>`;
  }

  /** What happened since the proposal was made: the user edited it, a file changed under it. */
  private renderSince(a: PendingApproval): unknown {
    return html`${
      a.edited
        ? html`<p class="approval-edited" role="status">You edited the proposal: Approve writes your version.</p>`
        : nothing
    }
      ${a.stale ? html`<p class="approval-warning" role="alert">${a.stale}</p>` : nothing}`;
  }

  /** Path, +/− counts, "Open diff", and what happened since: the proposal edited, the file changed. */
  private renderChange(a: PendingApproval, c: NonNullable<PendingApproval['change']>): unknown {
    return html`${this.renderFileLine(a, c, false)}${this.renderSince(a)}`;
  }

  private renderDiff(text: string): unknown {
    return renderDiff(text, 'approval-detail approval-diff');
  }

  /** Offered only with the narrow rule it would save, named on the card before the click. */
  private renderAlways(a: PendingApproval, rule: string, done: boolean): unknown {
    const where = a.labels?.alwaysWhere ?? 'sextant.permissions.allow';
    const place = a.labels?.alwaysWhere ? html`<code>${where}</code>` : 'your settings';
    return html`<vscode-button
        secondary
        ?disabled=${done}
        title=${`Adds ${rule} to ${where} in your user settings`}
        @click=${() => this.decide(a, 'always')}
        >${a.labels?.always ?? 'Always allow'}</vscode-button
      ><span class="always-rule">adds <code>${rule}</code> to ${place}</span>`;
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { approvals, questions, todos } = this.ctx.store.chat;
    const live = new Set(approvals.map((a) => a.callId));
    for (const id of this.decided) if (!live.has(id)) this.decided.delete(id);
    const doneCount = todos.filter((t) => t.status === 'completed').length;
    return html`
      <sx-rewind-panel .ctx=${this.ctx}></sx-rewind-panel>
      ${this.renderApprovals(approvals)}
      ${questions.map((q) => html`<sx-question-form .ctx=${this.ctx} .pending=${q}></sx-question-form>`)}
      ${
        todos.length
          ? html`<details class="todos card" open>
            <summary>Todos (${doneCount}/${todos.length})</summary>
            <ul aria-label="Todos">
              ${todos.map(
                (t) => html`<li class="todo ${t.status}"><span
                  class="todo-mark"
                  aria-hidden="true"
                >${TODO_MARKS[t.status]}</span>
                  <span class="todo-text">${t.content}</span><span
                    class="visually-hidden"
                  > (${TODO_LABELS[t.status]})</span></li>`,
              )}
            </ul>
          </details>`
          : nothing
      }
    `;
  }
}

defineElement('sx-panels', SxPanels);
