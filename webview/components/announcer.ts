// The view's live region: a visually hidden status that screen readers read out when an answer
// finishes or something waits for the user (store.announcement). Each announcement replaces the
// node, so the same words ("Answer complete") are spoken again for the next answer.
import { html, nothing } from 'lit';
import { keyed } from 'lit/directives/keyed.js';
import type { Topic } from '../store';
import { LightElement, defineElement } from './base';

export class SxAnnouncer extends LightElement {
  protected override topics(): Topic[] {
    return ['announce'];
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { text, n } = this.ctx.store.announcement;
    return html`<div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      ${keyed(n, html`<span>${text}</span>`)}
    </div>`;
  }
}

defineElement('sx-announcer', SxAnnouncer);
