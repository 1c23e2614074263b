// The workspace's hooks waiting for the user: one card listing every command in full (event, matcher,
// file, timeout), "Approve hooks" / "Deny hooks". Nothing of them runs before the user approves; a
// changed configuration asks again. Problems in any hook configuration are shown above it.
import { html, nothing } from 'lit';
import type { HooksView } from '../../extension/protocol';
import type { Topic } from '../store';
import { revealInvisible } from '../invisible';
import { LightElement, defineElement } from './base';

type WorkspaceHooks = NonNullable<HooksView['workspace']>;

export class SxHookApprovals extends LightElement {
  /** Hashes answered here, so a double click cannot send two decisions. */
  private readonly decided = new Set<string>();

  protected override topics(): Topic[] {
    return ['panels'];
  }

  private decide(w: WorkspaceHooks, decision: 'approve' | 'deny'): void {
    if (!this.ctx || this.decided.has(w.hash)) return;
    this.decided.add(w.hash);
    this.ctx.host.post({ type: 'hookDecision', hash: w.hash, decision });
    this.requestUpdate();
  }

  private renderCard(w: WorkspaceHooks): unknown {
    const done = this.decided.has(w.hash);
    const files = [...new Set(w.hooks.map((h) => h.source))].join(', ');
    const count = w.hooks.length === 1 ? 'a hook' : `${w.hooks.length} hooks`;
    return html`<section class="approval card hook-approval" role="group" aria-label="Workspace hooks">
      <div class="approval-head">
        ${
          w.changed
            ? `The workspace's hooks changed since you approved them (${files}).`
            : `This workspace's ${files} wants to run ${count} on the agent's events.`
        }
      </div>
      <p class="approval-reason">
        Each command runs on your machine (in the sandbox where one works) with the event as JSON on its input.
        None runs until you approve; if any changes, Sextant asks again.
      </p>
      <ul class="hook-list">
        ${w.hooks.map(
          (h) => html`<li>
            <strong>${h.event}</strong>${h.matcher ? html` matching <code>${h.matcher}</code>` : nothing}${
              h.if ? html` if <code>${h.if}</code>` : nothing
            }
            <span class="mcp-hints">(${h.source}, ${h.timeoutS} s)</span>
            <pre class="approval-subject">${revealInvisible(h.command).text}</pre>
          </li>`,
        )}
      </ul>
      <div class="actions">
        <vscode-button ?disabled=${done} @click=${() => this.decide(w, 'approve')}>Approve hooks</vscode-button>
        <vscode-button secondary ?disabled=${done} @click=${() => this.decide(w, 'deny')}>Deny hooks</vscode-button>
      </div>
    </section>`;
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { workspace, problems } = this.ctx.store.hooks;
    const waiting = workspace?.state === 'pending' ? workspace : undefined;
    if (!waiting && !problems.length) return nothing;
    return html`${
      problems.length
        ? html`<div class="banner error" role="alert" aria-label="Hook configuration problems">
            ${problems.map((p) => html`<div>${p}</div>`)}
          </div>`
        : nothing
    }
      ${waiting ? this.renderCard(waiting) : nothing}`;
  }
}

defineElement('sx-hook-approvals', SxHookApprovals);
