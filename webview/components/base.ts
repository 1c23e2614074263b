// Shared plumbing for the view's elements: light DOM (one stylesheet themes everything and
// getByRole/screen readers see one tree), and subscriptions to the store that follow the
// element's connection.
import { LitElement } from 'lit';
import type { HostChannel } from '../host';
import type { MarkdownRenderer } from '../markdown';
import type { ChatStore, Topic } from '../store';

/** Everything an element needs, passed down explicitly (no module-level singletons). */
export interface ViewContext {
  store: ChatStore;
  host: HostChannel;
  markdown: MarkdownRenderer;
}

export abstract class LightElement extends LitElement {
  static override properties = { ctx: { attribute: false } };
  declare ctx: ViewContext | undefined;
  private unsubscribers: Array<() => void> = [];
  private subscribedCtx: ViewContext | undefined;
  private subscribedKey: unknown;

  /** Store topics that make this element redraw. */
  protected topics(): Topic[] {
    return [];
  }

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.resubscribe();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe();
  }

  /** What the subscriptions depend on besides ctx (e.g. a message id); a change resubscribes. */
  protected subscriptionKey(): unknown {
    return undefined;
  }

  protected override willUpdate(_changed: Map<PropertyKey, unknown>): void {
    if (this.isConnected && (this.ctx !== this.subscribedCtx || this.subscriptionKey() !== this.subscribedKey))
      this.resubscribe();
  }

  /** Subscriptions beyond topics (e.g. one message); override and call super. */
  protected subscribe(ctx: ViewContext): Array<() => void> {
    return this.topics().map((t) => ctx.store.on(t, () => this.refresh()));
  }

  /** Redraws and resolves when the DOM is up to date (the store times renders with it). */
  protected refresh(): Promise<boolean> {
    this.requestUpdate();
    return this.updateComplete;
  }

  private resubscribe(): void {
    this.unsubscribe();
    this.subscribedCtx = this.ctx;
    this.subscribedKey = this.subscriptionKey();
    if (this.ctx) this.unsubscribers = this.subscribe(this.ctx);
  }

  private unsubscribe(): void {
    for (const u of this.unsubscribers) u();
    this.unsubscribers = [];
    this.subscribedCtx = undefined;
  }
}

export function defineElement(name: string, ctor: CustomElementConstructor): void {
  if (!customElements.get(name)) customElements.define(name, ctor);
}
