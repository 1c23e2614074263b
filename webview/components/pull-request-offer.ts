// At the end of an Agent run that changed files, the answer offers "Create branch and pull request": the
// host runs the same flow as the palette's and the Agents view's command, for this chat's session (its
// worktree's branch when it works in one). Nothing is pushed from here: the host asks the user first.
import { html, nothing, type TemplateResult } from 'lit';
import type { ChatMessage } from '../../extension/protocol';
import type { ViewContext } from './base';

/** The run changed files: an edit or a new file the user approved (a write tool that ended ok). */
export function changedFiles(m: ChatMessage): boolean {
  return m.parts.some((p) => p.type === 'tool' && p.call.kind === 'write' && p.call.status === 'ok');
}

export function renderPullRequestOffer(m: ChatMessage, ctx: ViewContext): TemplateResult | typeof nothing {
  if (m.role !== 'assistant' || m.status !== 'done' || !changedFiles(m)) return nothing;
  if (ctx.store.chat.messages.at(-1)?.id !== m.id) return nothing;
  return html`<div class="pull-request-offer actions">
    <vscode-button
      secondary
      title="Push this chat's work on a branch (after you approve the push) and open a pull request"
      @click=${() => ctx.host.post({ type: 'createPullRequest' })}
    >Create branch and pull request</vscode-button>
  </div>`;
}
