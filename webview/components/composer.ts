// The composer: "Message" textbox (Enter sends, Shift+Enter is a new line), Send, Stop while
// a request is in flight, and "Compact now" (or /compact) once there is a conversation. The draft
// is view state: it survives the view being re-created.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { newRequestId } from '../host';
import type { Topic } from '../store';
import { LightElement, defineElement } from './base';
import { MODE_LABELS } from './header';
import { mcpCompletions, type CompletionQuery } from '../mcp-completions';

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
  /** The MCP reference picker under the textbox (`@server:uri`, `/mcp__server__prompt`), when open. */
  private completions: (CompletionQuery & { active: number }) | undefined;

  protected override topics(): Topic[] {
    return ['meta', 'structure', 'panels'];
  }

  private updateCompletions(area: HTMLTextAreaElement): void {
    const q = mcpCompletions(area.value, area.selectionStart ?? area.value.length, this.ctx?.store.mcp.servers ?? []);
    this.completions = q ? { ...q, active: 0 } : undefined;
  }

  private complete(index: number): void {
    const c = this.completions;
    const item = c?.items[index];
    const area = this.querySelector('textarea');
    if (!c || !item || !area) return;
    const caret = area.selectionStart ?? area.value.length;
    const text = `${area.value.slice(0, c.start)}${item.insert} ${area.value.slice(caret)}`;
    this.draft = text;
    this.ctx?.host.saveState({ draft: text });
    this.completions = undefined;
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const at = c.start + item.insert.length + 1;
      area.focus();
      area.setSelectionRange(at, at);
    });
  }

  private get text(): string {
    this.draft ??= this.ctx?.host.state.draft ?? '';
    return this.draft;
  }

  private onInput(event: Event): void {
    const area = event.target as HTMLTextAreaElement;
    this.draft = area.value;
    this.ctx?.host.saveState({ draft: this.draft });
    const wasOpen = this.completions !== undefined;
    this.updateCompletions(area);
    if (wasOpen || this.completions) this.requestUpdate();
  }

  private onKeyDown(event: KeyboardEvent): void {
    const c = this.completions;
    if (c && ['ArrowDown', 'ArrowUp', 'Tab', 'Enter', 'Escape'].includes(event.key) && !event.shiftKey) {
      event.preventDefault();
      event.stopPropagation();
      if (event.key === 'Escape') this.completions = undefined;
      else if (event.key === 'ArrowDown') c.active = (c.active + 1) % c.items.length;
      else if (event.key === 'ArrowUp') c.active = (c.active + c.items.length - 1) % c.items.length;
      else this.complete(c.active);
      this.requestUpdate();
      return;
    }
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
        aria-autocomplete="list"
        aria-expanded=${this.completions ? 'true' : 'false'}
      ></textarea>
      ${
        this.completions
          ? html`<ul class="mcp-completions" role="listbox" aria-label="MCP references">
              ${this.completions.items.map(
                (item, i) =>
                  html`<li
                    role="option"
                    aria-selected=${i === this.completions?.active ? 'true' : 'false'}
                    @mousedown=${(e: Event) => {
                      e.preventDefault();
                      this.complete(i);
                    }}
                  >
                    <span class="mcp-insert">${item.insert}</span>
                    ${item.detail ? html`<span class="mcp-detail">${item.detail}</span>` : nothing}
                  </li>`,
              )}
            </ul>`
          : nothing
      }
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
