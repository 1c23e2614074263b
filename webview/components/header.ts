// The header: the mode switch (a radio group; disabled modes carry their reason as a tooltip),
// the model picker, the permission mode, the session's usage and cost, and New chat / History / Export.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import {
  formatTokens,
  formatUsd,
  ReasoningChoiceSchema,
  sessionUsage,
  usageLine,
  type Mode,
  type ModelChoice,
  type ReasoningChoice,
  type SandboxView,
} from '../../extension/protocol';
import type { Meta, Topic } from '../store';
import { LightElement, defineElement } from './base';
import './context-popover';
import { renderPermissionMode } from './permission-mode';
import { iconAdd, iconExport, iconHistory } from './icons';

export const MODE_LABELS: Record<Mode, string> = { chat: 'Chat', plan: 'Plan', research: 'Research', agent: 'Agent' };
const EXPORT_FORMATS = [
  ['markdown', 'Markdown'],
  ['html', 'HTML'],
  ['json', 'JSON'],
] as const;

/** The reasoning option's labels: Anthropic's extended thinking, or an OpenAI-style reasoning effort. */
const REASONING_LABELS: Record<NonNullable<ModelChoice['reasoning']>, Record<ReasoningChoice, string>> = {
  thinking: { off: 'Thinking off', low: 'Think: low', medium: 'Think: medium', high: 'Think: high' },
  effort: { off: 'Reasoning: default', low: 'Reasoning: low', medium: 'Reasoning: medium', high: 'Reasoning: high' },
};

export class SxHeader extends LightElement {
  private exportOpen = false;

  protected override topics(): Topic[] {
    return ['meta'];
  }

  private chooseMode(mode: Mode): void {
    if (!this.ctx) return;
    this.ctx.store.setMode(mode);
    this.ctx.host.post({ type: 'setMode', mode });
  }

  private chooseModel(event: Event): void {
    const model = (event.target as HTMLSelectElement).value;
    if (!this.ctx || !model) return;
    this.ctx.store.setModel(model);
    this.ctx.host.post({ type: 'setModel', model });
  }

  private chooseReasoning(event: Event): void {
    const parsed = ReasoningChoiceSchema.safeParse((event.target as HTMLSelectElement).value);
    const model = this.ctx?.store.meta.model;
    if (!this.ctx || !model || !parsed.success) return;
    this.ctx.store.setReasoning(model, parsed.data);
    this.ctx.host.post({ type: 'setReasoning', model, reasoning: parsed.data });
  }

  /** The current model's reasoning level, when its provider takes one (kept per model). */
  private renderReasoning(choice: ModelChoice | undefined, chosen: ReasoningChoice): TemplateResult | typeof nothing {
    if (!choice?.reasoning) return nothing;
    const labels = REASONING_LABELS[choice.reasoning];
    const title =
      choice.reasoning === 'thinking'
        ? 'Extended thinking for this model: its thinking budget (shown folded in the answer)'
        : 'Reasoning effort for this model (default: the model decides)';
    return html`<select
      class="reasoning-picker"
      aria-label="Reasoning"
      title=${title}
      @change=${(e: Event) => this.chooseReasoning(e)}
    >
      ${ReasoningChoiceSchema.options.map(
        (level) => html`<option value=${level} .selected=${live(level === chosen)}>${labels[level]}</option>`,
      )}
    </select>`;
  }

  private toggleExport(): void {
    this.exportOpen = !this.exportOpen;
    void this.refresh().then(() => {
      if (this.exportOpen) this.querySelector<HTMLElement>('.menu [role="menuitem"]')?.focus();
    });
  }

  private exportAs(format: (typeof EXPORT_FORMATS)[number][0]): void {
    this.exportOpen = false;
    this.requestUpdate();
    this.ctx?.host.post({ type: 'export', format });
  }

  private onExportKey(event: KeyboardEvent): void {
    if (this.exportOpen && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      // Arrow keys move between the menu's items, wrapping around.
      const items = [...this.querySelectorAll<HTMLElement>('.menu [role="menuitem"]')];
      const at = items.indexOf(document.activeElement as HTMLElement);
      const next = (at + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      items[next]?.focus();
      event.preventDefault();
      return;
    }
    if (event.key === 'Escape' && this.exportOpen) {
      event.stopPropagation();
      this.exportOpen = false;
      this.requestUpdate();
      this.querySelector<HTMLButtonElement>('.export-toggle')?.focus();
    }
  }

  private renderModes(meta: Meta): TemplateResult {
    return html`<div class="mode-switch" role="radiogroup" aria-label="Mode">
      ${meta.modes.map(
        (m) => html`<label
          class="mode-option ${m.enabled ? '' : 'disabled'}"
          title=${m.enabled ? `${MODE_LABELS[m.mode]} mode (Shift+Tab cycles)` : (m.reason ?? 'Not available')}
        >
          <input
            type="radio"
            name="sx-mode"
            .value=${m.mode}
            .checked=${live(meta.mode === m.mode)}
            ?disabled=${!m.enabled}
            title=${m.enabled ? nothing : (m.reason ?? 'Not available')}
            @change=${() => this.chooseMode(m.mode)}
          /><span>${MODE_LABELS[m.mode]}</span>
        </label>`,
      )}
    </div>`;
  }

  /** Tokens and cost of the whole session; the cost only when every answer's price was known. */
  private renderUsage(): TemplateResult | typeof nothing {
    const total = sessionUsage(this.ctx?.store.chat.messages ?? []);
    if (total.answers === 0) return nothing;
    const shown =
      total.costUsd === undefined
        ? `${formatTokens(total.inputTokens + total.outputTokens)} tokens`
        : formatUsd(total.costUsd);
    const title = `This session: ${usageLine(total)}`;
    return html`<span class="session-usage" role="status" aria-label="Session usage" title=${title}>${shown}</span>`;
  }

  /** Where commands run: a short word in the header, the details (or the fix) in its tooltip. */
  private renderSandbox(box: SandboxView | undefined): TemplateResult | typeof nothing {
    if (!box) return nothing;
    const word = { boxed: 'Boxed', auto: 'Boxed · auto', off: 'Box off', unavailable: 'No box' }[box.state];
    return html`<span
      class=${`sandbox-status sandbox-${box.state}`}
      role="status"
      aria-label="Sandbox"
      aria-description=${`${box.summary}. ${box.detail}`}
      title=${`${box.summary}\n${box.detail}`}
      >${word}</span
    >`;
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { meta } = this.ctx.store;
    const current = meta.models.find((m) => m.ref === meta.model);
    const known = current !== undefined && !current.unavailable;
    return html`<header class="header">
      ${this.renderModes(meta)}
      <div class="header-row">
        <select class="model-picker" aria-label="Model" title="Model" @change=${(e: Event) => this.chooseModel(e)}>
          ${known || !meta.model ? nothing : html`<option value=${meta.model} selected>${meta.model}</option>`}
          ${meta.models.map(
            (m) =>
              html`<option
                value=${m.ref}
                ?disabled=${Boolean(m.unavailable)}
                title=${m.unavailable ?? nothing}
                .selected=${live(m.ref === meta.model && !m.unavailable)}
              >${m.label}${m.hasKey ? '' : ' (no key)'}</option>`,
          )}
        </select>
        ${this.renderReasoning(current, meta.reasoning[meta.model] ?? 'off')}
        ${renderPermissionMode(meta.permissionMode, (mode) => {
          this.ctx?.store.setPermissionMode(mode);
          this.ctx?.host.post({ type: 'setPermissionMode', mode });
        })}
        <span class="spacer"></span>
        ${this.renderUsage()}
        ${this.renderSandbox(meta.sandbox)}
        <button
          class="icon-button"
          aria-label="New chat"
          title="New chat"
          @click=${() => this.ctx?.host.post({ type: 'newChat' })}
        >${iconAdd}</button>
        <button
          class="icon-button"
          aria-label="History"
          title="History"
          @click=${() => {
            this.ctx?.store.setView('history');
            this.ctx?.host.post({ type: 'history' });
          }}
        >${iconHistory}</button>
        <div class="menu-anchor" @keydown=${(e: KeyboardEvent) => this.onExportKey(e)}>
          <button
            class="icon-button export-toggle"
            aria-label="Export"
            title="Export"
            aria-haspopup="menu"
            aria-expanded=${this.exportOpen ? 'true' : 'false'}
            @click=${() => this.toggleExport()}
          >
            ${iconExport}
          </button>
          ${
            this.exportOpen
              ? html`<div class="menu" role="menu" aria-label="Export as">
                ${EXPORT_FORMATS.map(
                  ([format, label]) =>
                    html`<button role="menuitem" @click=${() => this.exportAs(format)}>Export as ${label}</button>`,
                )}
              </div>`
              : nothing
          }
        </div>
        <sx-context-popover .ctx=${this.ctx}></sx-context-popover>
      </div>
    </header>`;
  }
}

defineElement('sx-header', SxHeader);
