// One chat message as an article ("You" / "Sextant"). It redraws only when its own version
// changes, so streaming into the last message leaves every other message alone.
import { html, nothing, type TemplateResult } from 'lit';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import { usageLine, type ChatMessage, type ImageRef, type MessagePart } from '../../extension/protocol';
import { type HostChannel, newRequestId } from '../host';
import { LightElement, defineElement, type ViewContext } from './base';
import { MODE_LABELS } from './header';
import { renderToolCard } from './tool-card';
import { renderPlanCard } from './plan-card';
import { renderReportCard, renderResearchProgress } from './report-card';
import { renderCompactionMarker } from './compaction-marker';
import { renderSentChips } from './reference-chips';
import { renderStoredImage } from './stored-image';
import { renderPullRequestOffer } from './pull-request-offer';
import './markdown-view';

export class SxMessage extends LightElement {
  static override properties = {
    ...LightElement.properties,
    message: { attribute: false },
    version: { attribute: false },
  };
  declare message: ChatMessage | undefined;
  declare version: number;
  /** The edited text while the user edits this (user) message. */
  private editing: string | undefined;
  /** Continue was clicked after a budget stop or the step limit (the button goes away). */
  private continued = false;

  /** A stored image of this message (fetched from the host once; the message redraws when it arrives). */
  private readonly imageOf = (ref: ImageRef, alt: string): TemplateResult =>
    renderStoredImage(ref, alt, this.ctx, this.message?.id ?? '');

  protected override subscribe(ctx: ViewContext): Array<() => void> {
    const id = this.message?.id;
    return id ? [ctx.store.onMessage(id, () => this.refresh())] : [];
  }

  protected override subscriptionKey(): unknown {
    return this.message?.id;
  }

  private renderPart(
    part: MessagePart,
    index: number,
    streaming: boolean,
    last: number,
  ): TemplateResult | typeof nothing {
    switch (part.type) {
      case 'text':
        return html`<sx-markdown
          .ctx=${this.ctx}
          .text=${part.text}
          .streaming=${streaming && index === last}
        ></sx-markdown>`;
      case 'thinking':
        return html`<details class="thinking"><summary>Thinking</summary><div
          class="thinking-text"
        >${part.text}</div></details>`;
      case 'tool':
        return renderToolCard(part.call, this.ctx?.host, this.imageOf);
      case 'plan':
        return this.ctx ? renderPlanCard(part.plan, this.ctx.host, this.ctx.store.meta.researchScope) : nothing;
      case 'report':
        return this.ctx ? renderReportCard(part.report, this.ctx) : nothing;
      case 'compaction':
        return renderCompactionMarker(part.compaction, this.ctx);
      case 'notice':
        return html`<div class="notice notice-${part.notice.kind}" role="note">${part.notice.text}</div>`;
      case 'attachments':
        return renderSentChips(part.attachments, this.imageOf);
    }
  }

  private renderError(m: ChatMessage, host: HostChannel): TemplateResult | typeof nothing {
    if (m.status !== 'error' || !m.error) return nothing;
    const post = host.post.bind(host);
    return html`<div class="message-error" role="alert">
      <p>${m.error.message}</p>
      <div class="actions">
        <vscode-button @click=${() => post({ type: 'retry', requestId: newRequestId() })}>Retry</vscode-button>
        ${
          m.error.code === 'no_key'
            ? html`<vscode-button
                secondary
                @click=${() => post({ type: 'runCommand', command: 'setApiKey' })}
              >Set API Key</vscode-button>`
            : nothing
        }
      </div>
    </div>`;
  }

  /** "Edit" and "Rewind to here" on a user message; the host refuses them while a request runs. */
  private renderUserActions(m: ChatMessage): TemplateResult {
    const text = m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    return html`<div class="message-actions">
      <button class="link-button" title="Edit this message and send it again (the chat forks here)" @click=${() => {
        this.editing = text;
        this.requestUpdate();
      }}>Edit</button>
      <button
        class="link-button"
        title="Put files and/or the conversation back to before this message"
        @click=${() => this.rewindHere(m.id)}
      >Rewind to here</button>
    </div>`;
  }

  private rewindHere(messageId: string, edit?: string): void {
    const ctx = this.ctx;
    if (!ctx) return;
    ctx.store.startRewind(messageId, edit);
    ctx.host.post({ type: 'rewindPreview', messageId });
  }

  private renderEditor(m: ChatMessage, text: string): TemplateResult {
    const send = () => {
      const edited = (this.editing ?? '').trim();
      if (!edited) return;
      this.editing = undefined;
      this.requestUpdate();
      this.rewindHere(m.id, edited);
    };
    const cancel = () => {
      this.editing = undefined;
      this.requestUpdate();
    };
    return html`<div class="message-editor">
      <textarea
        aria-label="Edit message"
        rows="3"
        .value=${text}
        @input=${(e: Event) => {
          this.editing = (e.target as HTMLTextAreaElement).value;
        }}
        @keydown=${(e: KeyboardEvent) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            cancel();
          } else if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send();
          }
        }}
      ></textarea>
      <div class="actions">
        <vscode-button @click=${send}>Send edited message</vscode-button>
        <vscode-button secondary @click=${cancel}>Cancel</vscode-button>
      </div>
    </div>`;
  }

  private renderUsage(usage: NonNullable<ChatMessage['usage']>): TemplateResult {
    return html`<div class="usage" title="Tokens and cost of this answer">${usageLine(usage)}</div>`;
  }

  /**
   * After a budget stop or the step limit, the last answer offers Continue: "continue" as a new run —
   * another batch of steps, and past a budget stop with the session caps lifted for that run. The
   * notice is a stored part, so the button is there again after a reload.
   */
  private renderContinue(m: ChatMessage): TemplateResult | typeof nothing {
    const ctx = this.ctx;
    if (!ctx || m.status !== 'done' || this.continued) return nothing;
    if (ctx.store.chat.messages.at(-1)?.id !== m.id) return nothing;
    const last = m.parts.at(-1);
    const notice = last?.type === 'notice' ? last.notice : undefined;
    const budgetStop = notice?.kind === 'budget' ? notice.budgetStop : undefined;
    if (!budgetStop && notice?.kind !== 'step_limit') return nothing;
    const title = budgetStop
      ? `Go on past the cap (${budgetStop.setting}) for one more run`
      : 'Go on with another batch of steps (sextant.agent.maxSteps)';
    return html`<div class="continue-run actions">
      <vscode-button
        title=${title}
        @click=${() => {
          this.continued = true;
          this.requestUpdate();
          ctx.host.post({
            type: 'send',
            requestId: newRequestId(),
            text: 'continue',
            mode: m.mode,
            ...(budgetStop ? { budget: { continuing: true } } : {}),
          });
        }}
      >Continue</vscode-button>
    </div>`;
  }

  protected override render(): unknown {
    const m = this.message;
    if (!m || !this.ctx) return nothing;
    const user = m.role === 'user';
    // A goal's own messages (a failed check sent on) are not the user's: they say whose they are.
    const author = user ? (m.origin === 'goal' ? 'Goal loop' : 'You') : 'Sextant';
    const streaming = m.status === 'streaming';
    const lastIndex = m.parts.length - 1;
    // While a user message is edited, its text is hidden (the editor below takes its place).
    const editing = user && this.editing !== undefined ? ' editing' : '';
    return html`<article class="message ${m.role} status-${m.status}${editing}" aria-label=${author}>
      <div class="message-header">
        <span class="author">${author}</span>
        <span class="badge mode-badge" title="Mode of this turn">${MODE_LABELS[m.mode]}</span>
        ${!user && m.model ? html`<span class="model-name">${m.model}</span>` : nothing}
        ${m.status === 'stopped' ? html`<span class="badge stopped-badge">stopped</span>` : nothing}
      </div>
      <div class="message-body">
        ${
          user
            ? m.parts.map((p) =>
                p.type === 'text'
                  ? html`<div class="user-text">${p.text}</div>`
                  : p.type === 'attachments'
                    ? renderSentChips(p.attachments, this.imageOf)
                    : nothing,
              )
            : repeat(
                m.parts,
                (p, i) =>
                  p.type === 'tool'
                    ? `tool:${p.call.callId}`
                    : p.type === 'plan'
                      ? `plan:${p.plan.id}`
                      : p.type === 'report'
                        ? `report:${p.report.id}`
                        : `${p.type}:${i}`,
                (p, i) => {
                  const deps = partDeps(p, streaming && i === lastIndex);
                  return deps
                    ? guard(deps, () => this.renderPart(p, i, streaming, lastIndex))
                    : this.renderPart(p, i, streaming, lastIndex);
                },
              )
        }
        ${editing && this.editing !== undefined ? this.renderEditor(m, this.editing) : nothing}
        ${streaming && m.research ? renderResearchProgress(m.research) : nothing}
        ${
          streaming && m.parts.length === 0 && !m.research
            ? html`<div class="typing"><vscode-progress-ring
                role="progressbar"
                aria-live="off"
                aria-label="Waiting for the answer"
              ></vscode-progress-ring></div>`
            : nothing
        }
      </div>
      ${this.renderError(m, this.ctx.host)}
      ${m.usage ? this.renderUsage(m.usage) : nothing}
      ${this.renderContinue(m)}
      ${renderPullRequestOffer(m, this.ctx)}
      ${user && this.editing === undefined ? this.renderUserActions(m) : nothing}
    </article>`;
  }
}

/**
 * What a part's rendering depends on, for the parts a long Agent run piles up (text, tool cards,
 * notices): an answer of 150 steps holds 300 parts, and without this every event of the streaming
 * message re-rendered all of them (the real window's time per step grew 1.5× over such a run).
 * The reducer replaces a tool's `call` on each update but sets `liveOutput` and a final `status` in
 * place, so those are listed too. Parts that read view state besides the part (plans, reports,
 * markers, stored images) render every time, as before; they are few.
 */
function partDeps(part: MessagePart, streamingHere: boolean): unknown[] | undefined {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return [part.type, part.text, streamingHere];
    case 'tool':
      // A card with images reads them from the view's image store as they arrive: it renders every time.
      return part.call.images?.length ? undefined : [part.call, part.call.status, part.call.liveOutput];
    case 'notice':
      return [part.notice];
    default:
      return undefined;
  }
}

defineElement('sx-message', SxMessage);
