// The composer: "Message" textbox (Enter sends, Shift+Enter is a new line), Send, Stop while
// a request is in flight, and "Compact now" (or /compact) once there is a conversation. The draft
// is view state: it survives the view being re-created.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { newRequestId } from '../host';
import type { Topic } from '../store';
import { LightElement, defineElement } from './base';
import { MODE_LABELS } from './header';

/** The quick budget picker: the dollar cap of the next run ('' = sextant.budget.maxCostUsd, 'none' = no cap). */
const BUDGET_CHOICES = [
  ['', 'Budget'],
  ['0.1', '≤ $0.10'],
  ['0.5', '≤ $0.50'],
  ['2', '≤ $2'],
  ['10', '≤ $10'],
  ['none', 'No cap'],
] as const;

export class SxComposer extends LightElement {
  private draft: string | undefined;
  /** The budget picked for the next run; back to the settings' after it is sent. */
  private budget = '';
  /** The last draft request taken from the store (a rewound message's text). */
  private takenDraft = 0;

  protected override topics(): Topic[] {
    return ['meta', 'structure'];
  }

  private get text(): string {
    this.draft ??= this.ctx?.host.state.draft ?? '';
    return this.draft;
  }

  private onInput(event: Event): void {
    this.draft = (event.target as HTMLTextAreaElement).value;
    this.ctx?.host.saveState({ draft: this.draft });
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (
      event.key === 'Enter' &&
      !event.shiftKey &&
      !event.isComposing &&
      !event.altKey &&
      !event.ctrlKey &&
      !event.metaKey
    ) {
      event.preventDefault();
      this.send();
    }
  }

  send(): void {
    const ctx = this.ctx;
    const text = this.text.trim();
    if (!ctx || !text) return;
    const budget = this.budget === '' ? undefined : { maxCostUsd: this.budget === 'none' ? null : Number(this.budget) };
    // "/compact" alone is the Compact now command, not a message to the model.
    if (text === '/compact') ctx.host.post({ type: 'compactNow' });
    else {
      ctx.host.post({
        type: 'send',
        requestId: newRequestId(),
        text,
        mode: ctx.store.meta.mode,
        ...(budget ? { budget } : {}),
      });
      this.budget = '';
    }
    this.draft = '';
    ctx.host.saveState({ draft: '' });
    this.requestUpdate();
  }

  stop(): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const requestId = ctx.store.chat.inFlightRequestId;
    ctx.host.post(requestId ? { type: 'abort', requestId } : { type: 'abort' });
  }

  override focus(): void {
    this.querySelector('textarea')?.focus();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    const request = this.ctx?.store.draftRequest;
    if (request && request.n !== this.takenDraft) {
      // A rewind put the message back: it replaces the draft, so it can be edited and sent again.
      this.takenDraft = request.n;
      this.draft = request.text;
      this.ctx?.host.saveState({ draft: request.text });
    }
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { store } = this.ctx;
    const inFlight = store.chat.inFlightRequestId !== undefined;
    return html`<div class="composer">
      <textarea
        aria-label="Message"
        rows="3"
        placeholder=${`Ask in ${MODE_LABELS[store.meta.mode]} mode — Enter to send, Shift+Enter for a new line`}
        .value=${live(this.text)}
        @input=${(e: Event) => this.onInput(e)}
        @keydown=${(e: KeyboardEvent) => this.onKeyDown(e)}
      ></textarea>
      <div class="composer-actions">
        <span class="composer-hint">Shift+Tab: mode · Esc Esc: stop</span>
        <span class="spacer"></span>
        ${
          !inFlight && store.chat.messages.length >= 2
            ? html`<button
                class="link-button"
                title="Summarise the older turns into a brief now (or type /compact); the originals are kept"
                @click=${() => this.ctx?.host.post({ type: 'compactNow' })}
              >Compact now</button>`
            : nothing
        }
        <select
          class="budget-picker"
          aria-label="Budget for this run"
          title="Most the next run may spend (sextant.budget.maxCostUsd otherwise)"
          @change=${(e: Event) => {
            this.budget = (e.target as HTMLSelectElement).value;
          }}
        >
          ${BUDGET_CHOICES.map(
            ([value, label]) => html`<option value=${value} .selected=${live(this.budget === value)}>${label}</option>`,
          )}
        </select>
        ${inFlight ? html`<vscode-button secondary @click=${() => this.stop()}>Stop</vscode-button>` : nothing}
        <vscode-button @click=${() => this.send()}>Send</vscode-button>
      </div>
    </div>`;
  }
}

defineElement('sx-composer', SxComposer);
