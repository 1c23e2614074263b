// The root element: header, then either the chat (conversation, panels, composer) or the
// history. Owns the view-wide keys: Shift+Tab in the composer cycles the mode, Esc Esc stops the request.
import { html, nothing } from 'lit';
import { DoublePress, nextEnabledMode } from '../keyboard';
import type { Topic } from '../store';
import { LightElement, defineElement, type ViewContext } from './base';
import './announcer';
import './composer';
import './header';
import './history-view';
import './message-list';
import './panels';
import './mcp-approvals';
import './hook-approvals';

export class SxApp extends LightElement {
  private readonly escape = new DoublePress(1000);

  protected override topics(): Topic[] {
    return ['view', 'notice'];
  }

  protected override subscribe(ctx: ViewContext): Array<() => void> {
    const onKey = (e: KeyboardEvent): void => this.onKey(e);
    // Capture phase, so the mode switch works wherever focus is (the composer included).
    window.addEventListener('keydown', onKey, true);
    return [...super.subscribe(ctx), () => window.removeEventListener('keydown', onKey, true)];
  }

  private onKey(e: KeyboardEvent): void {
    const ctx = this.ctx;
    if (!ctx) return;
    if (e.key === 'Tab' && e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && this.cyclesMode(e)) {
      const { modes, mode } = ctx.store.meta;
      const next = nextEnabledMode(modes, mode);
      e.preventDefault();
      if (!next) return;
      ctx.store.setMode(next);
      ctx.host.post({ type: 'setMode', mode: next });
      return;
    }
    if (e.key === 'Escape' && !e.repeat) {
      if (this.escape.press() && ctx.store.chat.inFlightRequestId) {
        ctx.host.post({ type: 'abort', requestId: ctx.store.chat.inFlightRequestId });
      }
    }
  }

  /**
   * Shift+Tab switches mode from the composer (as in Claude Code) or when nothing has focus;
   * everywhere else it keeps moving focus backwards, so keyboard users can still navigate.
   */
  private cyclesMode(e: KeyboardEvent): boolean {
    const target = e.composedPath()[0];
    if (target === document.body || target === document.documentElement || target === window) return true;
    return (
      target instanceof HTMLElement && target.tagName === 'TEXTAREA' && target.getAttribute('aria-label') === 'Message'
    );
  }

  protected override updated(): void {
    // Opening the history moves focus into it; coming back returns focus to the composer.
    const view = this.ctx?.store.view;
    if (!view || view === this.lastView) return;
    const first = this.lastView === undefined;
    this.lastView = view;
    if (first) return;
    const child = this.querySelector<LightElement>(view === 'history' ? 'sx-history' : 'sx-composer');
    void child?.updateComplete.then(() => {
      const target =
        view === 'history'
          ? child.querySelector<HTMLElement>('input.search')
          : child.querySelector<HTMLElement>('textarea');
      target?.focus();
    });
  }

  private lastView: 'chat' | 'history' | undefined;

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { store } = this.ctx;
    const err = store.protocolError;
    // Landmarks and a heading, so screen-reader users can jump: the header (modes, model) is the
    // banner, the conversation or the history is the main content.
    return html`<div class="app">
      <sx-header .ctx=${this.ctx}></sx-header>
      <main class="app-main">
      <h1 class="visually-hidden">Sextant</h1>
      <sx-announcer .ctx=${this.ctx}></sx-announcer>
      ${
        err
          ? html`<div class="banner error" role="alert">
            <span>${err.message}</span>
            <button class="small-button" @click=${() => store.dismissError()}>Dismiss</button>
          </div>`
          : nothing
      }
      <div class="chat-view" ?hidden=${store.view !== 'chat'}>
        <div class="scroll-area">
          <sx-message-list .ctx=${this.ctx}></sx-message-list>
        </div>
        <sx-mcp-approvals .ctx=${this.ctx}></sx-mcp-approvals>
        <sx-hook-approvals .ctx=${this.ctx}></sx-hook-approvals>
        <sx-panels .ctx=${this.ctx}></sx-panels>
        <sx-composer .ctx=${this.ctx}></sx-composer>
      </div>
      ${store.view === 'history' ? html`<sx-history .ctx=${this.ctx}></sx-history>` : nothing}
      </main>
    </div>`;
  }
}

defineElement('sx-app', SxApp);
