// The conversation. Only the tail is rendered (a very long history costs nothing per frame);
// "Show earlier messages" reveals more. Keeps the view pinned to the bottom while an answer
// streams, unless the user scrolled up to read.
import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Topic } from '../store';
import { LightElement, defineElement, type ViewContext } from './base';
import './message-view';

/** Messages rendered when a chat is (re)opened, and how many more each "show earlier" adds. */
export const INITIAL_WINDOW = 60;
export const WINDOW_STEP = 100;

export class SxMessageList extends LightElement {
  private visible = INITIAL_WINDOW;
  private generation = -1;
  private pinned = true;
  private scroller: HTMLElement | undefined;

  protected override topics(): Topic[] {
    return ['structure', 'meta'];
  }

  protected override subscribe(ctx: ViewContext): Array<() => void> {
    // Every redraw (of the list or of one message) may grow the content: keep the bottom in view.
    const keepPinned = (): void => {
      if (this.pinned) this.scrollToBottom();
    };
    const onRender = (): void => keepPinned();
    window.addEventListener('sextant-render', onRender);
    return [...super.subscribe(ctx), () => window.removeEventListener('sextant-render', onRender)];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.scroller = this.closest<HTMLElement>('.scroll-area') ?? undefined;
    this.scroller?.addEventListener('scroll', this.onScroll, { passive: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.scroller?.removeEventListener('scroll', this.onScroll);
  }

  private readonly onScroll = (): void => {
    const s = this.scroller;
    if (s) this.pinned = s.scrollHeight - s.scrollTop - s.clientHeight < 40;
  };

  private scrollToBottom(): void {
    const s = this.scroller;
    if (s) s.scrollTop = s.scrollHeight;
  }

  private showEarlier(): void {
    const s = this.scroller;
    const fromBottom = s ? s.scrollHeight - s.scrollTop : 0;
    this.visible += WINDOW_STEP;
    this.pinned = false;
    void this.refresh().then(() => {
      if (s) s.scrollTop = s.scrollHeight - fromBottom;
    });
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { store } = this.ctx;
    if (store.generation !== this.generation) {
      this.generation = store.generation;
      this.visible = INITIAL_WINDOW;
      this.pinned = true;
    }
    const messages = store.chat.messages;
    const start = Math.max(0, messages.length - this.visible);
    const shown = messages.slice(start);
    if (!store.loaded) return html`<p class="placeholder">Loading…</p>`;
    if (messages.length === 0) {
      return html`<div class="empty-state">
        <p><strong>Sextant</strong> — ask anything. Pick a mode above: Chat answers from the model,
          Plan drafts a plan, Research searches the web and cites sources, Agent reads, edits and runs things
          in your workspace.</p>
        <p class="hint">Enter sends · Shift+Enter new line · Shift+Tab switches mode · Esc Esc stops</p>
        <p><button
          class="link-button"
          @click=${() => this.ctx?.host.post({ type: 'runCommand', command: 'getStarted' })}
        >Get Started: a short walkthrough</button></p>
      </div>`;
    }
    return html`${
      start > 0
        ? html`<div class="show-earlier"><button
            class="link-button"
            @click=${() => this.showEarlier()}
          >Show earlier messages (${start} more)</button></div>`
        : nothing
    }
      <div
        class="messages"
        role="log"
        aria-label="Conversation"
        aria-busy=${store.chat.inFlightRequestId ? 'true' : 'false'}
      >
        ${repeat(
          shown,
          (m) => m.id,
          (m) => html`<sx-message .ctx=${this.ctx} .message=${m} .version=${store.version(m.id)}></sx-message>`,
        )}
      </div>`;
  }
}

defineElement('sx-message-list', SxMessageList);
