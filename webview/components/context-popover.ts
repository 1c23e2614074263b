// The "Context" button in the header and its popover: the rules files in effect (with their estimated
// tokens, and a note when one was cut or refused), the skills listed to the model, and this chat's usage.
// /context and /cost open it too. The host sends the list on request, read afresh each time.
import { html, nothing, type TemplateResult } from 'lit';
import {
  CONTEXT_PART_LABELS,
  contextShare,
  formatTokens,
  sessionUsage,
  usageLine,
  type ContextBreakdown,
  type ProjectContextInfo,
} from '../../extension/protocol';
import type { Topic } from '../store';
import { LightElement, defineElement } from './base';

const SCOPE_LABELS: Record<ProjectContextInfo['rules'][number]['scope'], string> = {
  user: 'yours',
  workspace: 'workspace',
  nested: 'subfolder',
  import: 'imported',
};

const cutNote = (size: number) =>
  `Cut: the file has ${size.toLocaleString()} characters; only the first 20,000 are sent.`;

export class SxContextPopover extends LightElement {
  protected override topics(): Topic[] {
    return ['project', 'meta', 'structure'];
  }

  /** What the meter's figures were last asked for: the chat, its length, the model and mode. */
  private meterKey = '';

  private toggle(): void {
    const store = this.ctx?.store;
    if (!store) return;
    store.setContextOpen(!store.contextOpen);
  }

  /** The meter is not focusable (the Context button is the keyboard's way): a click moves focus there. */
  private toggleFromMeter(): void {
    this.toggle();
    this.querySelector<HTMLButtonElement>('.context-toggle')?.focus();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Escape' && this.ctx?.store.contextOpen) {
      e.stopPropagation();
      this.ctx.store.setContextOpen(false);
      this.querySelector<HTMLButtonElement>('.context-toggle')?.focus();
    }
  }

  /** Asked once per opening (the answer re-renders this element). */
  private asked = false;

  protected override updated(): void {
    const store = this.ctx?.store;
    if (store?.loaded) {
      // The next request changes with the chat, the model and the mode: ask again after each (not while streaming).
      const inFlight = store.chat.inFlightRequestId !== undefined;
      const { sessionId, model, mode } = store.meta;
      const key = `${sessionId}|${store.chat.messages.length}|${inFlight}|${model}|${mode}`;
      if (key !== this.meterKey && !inFlight) {
        this.meterKey = key;
        this.ctx?.host.post({ type: 'contextUsage' });
      }
    }
    if (!store?.contextOpen) this.asked = false;
    else if (!store.project && !this.asked) {
      this.asked = true;
      this.ctx?.host.post({ type: 'projectContext' });
      this.ctx?.host.post({ type: 'contextUsage' });
    }
  }

  private renderRules(info: ProjectContextInfo): TemplateResult {
    if (!info.rules.length)
      return html`<p class="muted">No rules files. Sextant reads AGENTS.md, CLAUDE.md, .claude/CLAUDE.md,
        .sextant/rules/*.md, SOUL.md and TOOLS.md in the workspace, and ~/.sextant/AGENTS.md and
        ~/.claude/CLAUDE.md.</p>`;
    return html`<ul class="context-list" aria-label="Rules files">
      ${info.rules.map(
        (r) => html`<li>
          <span class="context-name">${r.label}</span>
          <span class="muted">${SCOPE_LABELS[r.scope]}</span>
          <span class="spacer"></span>
          <span>${formatTokens(r.tokens)} tokens</span>
          ${r.cutFrom !== undefined ? html`<div class="context-note">${cutNote(r.cutFrom)}</div>` : nothing}
          ${r.note ? html`<div class="context-note">${r.note}</div>` : nothing}
        </li>`,
      )}
    </ul>`;
  }

  /** The header's meter: the next request's estimated size against the model's window. */
  private renderMeter(b: ContextBreakdown | undefined): TemplateResult | typeof nothing {
    if (!b) return nothing;
    const share = contextShare(b);
    const text = `${share} % of the context window: ${formatTokens(b.total)} of ${formatTokens(b.window)} tokens`;
    const title = `${text}. Compaction at ${formatTokens(b.compactAt)}.`;
    return html`<span class="context-meter" title=${title} @click=${() => this.toggleFromMeter()}>
      <meter
        aria-label="Context"
        aria-valuetext=${text}
        min="0"
        max=${b.window}
        .value=${b.total}
        high=${b.compactAt}
        optimum="0"
      ></meter>
      <span class="context-share" aria-hidden="true">${share} %</span>
    </span>`;
  }

  /** The popover's breakdown: each part's tokens, their total, the window and the compaction threshold. */
  private renderBreakdown(b: ContextBreakdown | undefined): TemplateResult {
    if (!b) return html`<p class="muted">Measuring…</p>`;
    const pct = (n: number) => `${((n / b.window) * 100).toFixed(1)} %`;
    const head = `${formatTokens(b.total)} of ${formatTokens(b.window)} tokens (${contextShare(b)} %)`;
    return html`<h3>Context window · ${head}</h3>
      <ul class="context-list context-breakdown" aria-label="Context breakdown">
        ${b.parts.map(
          (p) => html`<li>
            <span class="context-name">${CONTEXT_PART_LABELS[p.name]}</span>
            <span class="spacer"></span>
            <span>${formatTokens(p.tokens)} tokens</span><span class="muted">${pct(p.tokens)}</span>
          </li>`,
        )}
        <li class="context-threshold">
          <span class="context-name">Compaction threshold</span>
          <span class="spacer"></span>
          <span>${formatTokens(b.compactAt)} tokens</span><span class="muted">${pct(b.compactAt)}</span>
        </li>
      </ul>
      <p class="muted">
        ${b.model}. Estimated like compaction estimates (3.5 characters a token)${
          b.lastReported !== undefined
            ? html`; the provider counted ${formatTokens(b.lastReported)} for the last request`
            : ''
        }.
      </p>`;
  }

  private renderPanel(): TemplateResult {
    const store = this.ctx?.store;
    const info = store?.project;
    const usage = sessionUsage(store?.chat.messages ?? []);
    return html`<div class="context-popover" role="dialog" aria-label="Context">
      ${this.renderBreakdown(store?.context)}
      ${
        info
          ? html`<h3>Rules files · ${formatTokens(info.rulesTokens)} tokens</h3>
            ${this.renderRules(info)}
            <h3>Skills · ${formatTokens(info.skillsTokens)} tokens</h3>
            ${
              info.skills.length
                ? html`<ul class="context-list" aria-label="Skills">
                  ${info.skills.map(
                    (s) => html`<li title=${s.description}>
                      <span class="context-name">${s.name}</span><span class="muted">${s.source}</span>
                    </li>`,
                  )}
                </ul>`
                : html`<p class="muted">
                  No skills (SKILL.md folders in .sextant/skills, .claude/skills or the same under ~).
                </p>`
            }`
          : html`<p class="muted">Reading the workspace…</p>`
      }
      <h3>This chat</h3>
      <p>${usage.answers ? usageLine(usage) : 'Nothing spent yet.'}</p>
    </div>`;
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const open = this.ctx.store.contextOpen;
    return html`<div class="menu-anchor" @keydown=${(e: KeyboardEvent) => this.onKey(e)}>
      ${this.renderMeter(this.ctx.store.context)}
      <button
        class="link-button context-toggle"
        aria-haspopup="dialog"
        aria-expanded=${open ? 'true' : 'false'}
        title="What the model is given besides the chat: rules files, skills"
        @click=${() => this.toggle()}
      >Context</button>
      ${open ? this.renderPanel() : nothing}
    </div>`;
  }
}

defineElement('sx-context-popover', SxContextPopover);
