// Several proposed edits of one step on one card: each file with its counts, its diff one click away
// (inline, or "Open diff" in the editor's diff view), Approve / Deny per file, and Approve all / Deny
// all. Each button answers the same approval the file's own card would, so core sees no difference.
// Only plain one-file edits are batched (no sub-agent's, no sandbox edge prompt, no rename of several
// files): those keep their own cards.
import { html, nothing } from 'lit';
import type { PendingApproval } from '../../extension/protocol';
import { renderDiff } from '../diff-lines';
import { revealInvisible } from '../invisible';

export type EditDecision = 'approve' | 'deny' | 'rest-of-turn';

export interface EditBatchActions {
  decided(a: PendingApproval): boolean;
  decide(a: PendingApproval, decision: EditDecision): void;
  openDiff(a: PendingApproval): void;
}

/** An approval the batch card may hold: a one-file edit of the chat's own agent, with nothing special to say. */
export function isBatchableEdit(a: PendingApproval): boolean {
  return Boolean(a.change && !a.changeSet && !a.subagent && !a.labels);
}

export function renderEditBatch(edits: PendingApproval[], act: EditBatchActions): unknown {
  const open = edits.filter((a) => !act.decided(a));
  const n = edits.length;
  return html`<section class="approval card edit-batch" role="group" aria-label=${`Review ${n} edits`}>
    <div class="approval-head"><strong>${n} proposed edits</strong> in this step</div>
    <div class="actions">
      <vscode-button ?disabled=${!open.length} @click=${() => decideAll(open, 'approve', act)}
        >Approve all</vscode-button
      >
      <vscode-button secondary ?disabled=${!open.length} @click=${() => decideAll(open, 'deny', act)}
        >Deny all</vscode-button
      >
    </div>
    <ul class="batch-files" aria-label="Proposed edits">
      ${edits.map((a) => renderFile(a, act))}
    </ul>
  </section>`;
}

const editedNote = html`<p class="approval-edited" role="status">
  You edited the proposal: Approve writes your version.
</p>`;

function removed(n: number): unknown {
  return html`<span class="diff-removed" aria-label=${`${n} lines removed`}>−${n}</span>`;
}

function decideAll(open: PendingApproval[], decision: EditDecision, act: EditBatchActions): void {
  for (const a of open) act.decide(a, decision);
}

function renderFile(a: PendingApproval, act: EditBatchActions): unknown {
  const c = a.change;
  if (!c) return nothing;
  const done = act.decided(a);
  const diff = revealInvisible(c.diff);
  const path = revealInvisible(a.subject);
  const hidden = diff.count + path.count;
  return html`<li class="batch-file" aria-label=${`Edit of ${c.path}`}>
    <div class="approval-change">
      <span class="change-path">${c.path}</span>
      ${c.isNew ? html`<span class="change-new">new file</span>` : nothing}
      <span class="diff-added" aria-label=${`${c.added} lines added`}>+${c.added}</span>
      ${c.isNew ? nothing : removed(c.removed)}
      <vscode-button
        secondary
        aria-label=${`Open diff of ${c.path}`}
        title="Show this change in the editor's diff view, where you can also edit the proposal"
        @click=${() => act.openDiff(a)}
        >Open diff</vscode-button
      >
    </div>
    ${approvalNotes(a, hidden)}
    ${a.edited ? editedNote : nothing}
    ${a.stale ? html`<p class="approval-warning" role="alert">${a.stale}</p>` : nothing}
    ${
      diff.text
        ? html`<details class="batch-diff">
            <summary>Diff of ${c.path}</summary>
            ${renderDiff(diff.text, 'approval-detail approval-diff')}
          </details>`
        : nothing
    }
    <div class="actions">
      <vscode-button ?disabled=${done} aria-label=${`Approve ${c.path}`} @click=${() => act.decide(a, 'approve')}
        >Approve</vscode-button
      >
      <vscode-button secondary ?disabled=${done} aria-label=${`Deny ${c.path}`} @click=${() => act.decide(a, 'deny')}
        >Deny</vscode-button
      >
      ${a.restOfTurn ? restOfTurnButton(a, done, () => act.decide(a, 'rest-of-turn')) : nothing}
    </div>
  </li>`;
}

/** "Approve rest of turn for this file": this edit, and the file's later edits in this run without asking. */
export function restOfTurnButton(a: PendingApproval, done: boolean, onClick: () => void): unknown {
  const path = a.change?.path ?? a.subject;
  return html`<vscode-button
    secondary
    ?disabled=${done}
    aria-label=${`Approve rest of turn for ${path}`}
    title=${`Approves this edit, and lets later edits of ${path} in this run go ahead without asking`}
    @click=${onClick}
    >Approve rest of turn for this file</vscode-button
  >`;
}

/** Above a card's details: hidden characters found in what it shows (a warning), and why it asks. */
export function approvalNotes(a: PendingApproval, hidden: number) {
  return html`${
    hidden
      ? html`<p class="approval-warning" role="alert">
          Contains ${hidden} invisible or direction-changing character${hidden === 1 ? '' : 's'}, shown as ⟦U+…⟧.
        </p>`
      : nothing
  }
  ${a.reason ? html`<p class="approval-reason">Asks because ${a.reason}.</p>` : nothing}`;
}
