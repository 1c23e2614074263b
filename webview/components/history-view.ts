// Past sessions: newest first, searchable (title and content, with the matching excerpt),
// rename in place, delete with Undo, click to resume. A session whose window closed mid-run says "Interrupted".
//
// Thousands of sessions: the host sends the list a page at a time, and only the rows in and near the
// visible part of the scroller are in the DOM (windowed rendering). The list's padding stands in for
// the rows above and below, at the average height of the rows rendered so far; each row says its
// position (aria-posinset/-setsize) so a screen reader still hears "12 of 1,000". Scrolling near the
// end of what is loaded asks the host for the next page.
import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { SessionSummary } from '../../extension/protocol';
import type { Topic } from '../store';
import { LightElement, defineElement } from './base';
import { iconBack } from './icons';

export const SEARCH_DEBOUNCE_MS = 250;
/** Rows rendered above and below the visible ones, so a fast scroll or Tab finds rows ready. */
const OVERSCAN = 10;
/** A row's height before any has been measured (px); the real average replaces it after the first render. */
const ROW_HEIGHT_GUESS = 64;

function formatDate(ms: number): string {
  const d = new Date(ms);
  const sameDay = new Date().toDateString() === d.toDateString();
  return sameDay
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

export class SxHistory extends LightElement {
  private renaming: string | undefined;
  private deleted: SessionSummary | undefined;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** The window of rendered rows: [first, first + count) of the loaded sessions. */
  private first = 0;
  private count = 2 * OVERSCAN + 20;
  private rowHeight = ROW_HEIGHT_GUESS;
  /** Rows are measured once per list (re-measuring as the window moves could make it jitter). */
  private measured = false;
  /** The space standing in for the rows above and below the window (px). */
  private spacing = { above: 0, below: 0 };
  /** The offset of the page asked for and not yet arrived (asked once). */
  private asked: number | undefined;
  private readonly onScroll = () => this.updateWindow();

  protected override topics(): Topic[] {
    return ['history'];
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('scroll', this.onScroll, { passive: true });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.searchTimer);
    this.removeEventListener('scroll', this.onScroll);
  }

  protected override updated(): void {
    // Set through the CSSOM: the view's CSP (no 'unsafe-inline') refuses style attributes in templates.
    const list = this.querySelector<HTMLElement>('ul.session-list');
    if (list) {
      list.style.paddingTop = `${this.spacing.above}px`;
      list.style.paddingBottom = `${this.spacing.below}px`;
    }
    // Measure the rendered rows: their average height sizes the space of the rows not rendered.
    const rows = this.querySelectorAll<HTMLElement>('li.session');
    if (rows.length && !this.measured) {
      this.measured = true;
      let total = 0;
      for (const r of rows) total += r.offsetHeight;
      const avg = total / rows.length;
      if (avg > 0 && Math.abs(avg - this.rowHeight) > 1) {
        this.rowHeight = avg;
        this.updateWindow();
        return;
      }
    }
    this.maybeLoadMore();
  }

  /** Recomputes which rows are in (or near) view; redraws only when the window moved. */
  private updateWindow(): void {
    const list = this.querySelector<HTMLElement>('ul.session-list');
    const total = this.ctx?.store.history.sessions.length ?? 0;
    const top = list ? this.scrollTop - list.offsetTop : 0;
    const visible = Math.ceil(this.clientHeight / this.rowHeight) + 1;
    const first = Math.max(0, Math.min(Math.floor(top / this.rowHeight) - OVERSCAN, total - visible - OVERSCAN));
    const count = visible + 2 * OVERSCAN;
    if (first !== this.first || count !== this.count) {
      this.first = first;
      this.count = count;
      this.requestUpdate();
    } else this.maybeLoadMore();
  }

  /** Near the end of the loaded rows and the host has more: ask for the next page, once. */
  private maybeLoadMore(): void {
    const h = this.ctx?.store.history;
    if (!h?.hasMore || this.first + this.count < h.sessions.length - OVERSCAN) return;
    if (this.asked === h.sessions.length) return;
    this.asked = h.sessions.length;
    this.ctx?.host.post({
      type: 'history',
      offset: h.sessions.length,
      ...(h.query ? { query: h.query } : {}),
    });
  }

  private onSearch(event: Event): void {
    const query = (event.target as HTMLInputElement).value;
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => {
      // A new list starts at its top.
      this.scrollTop = 0;
      this.first = 0;
      this.measured = false;
      this.ctx?.host.post(query.trim() ? { type: 'history', query: query.trim() } : { type: 'history' });
    }, SEARCH_DEBOUNCE_MS);
  }

  private resume(s: SessionSummary): void {
    this.ctx?.host.post({ type: 'resume', sessionId: s.id });
  }

  private startRename(s: SessionSummary): void {
    this.renaming = s.id;
    void this.refresh().then(() => {
      const input = this.querySelector<HTMLInputElement>('input.rename-input');
      input?.focus();
      input?.select();
    });
  }

  private finishRename(s: SessionSummary, input: HTMLInputElement, save: boolean): void {
    if (this.renaming !== s.id) return;
    this.renaming = undefined;
    const title = input.value.trim().slice(0, 200);
    if (save && title && title !== s.title && this.ctx) {
      this.ctx.store.renameSessionLocally(s.id, title);
      this.ctx.host.post({ type: 'renameSession', sessionId: s.id, title });
    }
    void this.refresh().then(() =>
      this.querySelector<HTMLElement>(`[data-session="${CSS.escape(s.id)}"] .resume`)?.focus(),
    );
  }

  private deleteSession(s: SessionSummary): void {
    if (!this.ctx) return;
    this.deleted = s;
    this.ctx.store.removeSession(s.id);
    this.ctx.host.post({ type: 'deleteSession', sessionId: s.id });
    void this.refresh().then(() => this.querySelector<HTMLElement>('.undo-bar vscode-button')?.focus());
  }

  private undo(): void {
    if (!this.ctx || !this.deleted) return;
    this.ctx.host.post({ type: 'undoDelete', sessionId: this.deleted.id });
    this.deleted = undefined;
    this.requestUpdate();
  }

  private renderItem(s: SessionSummary, index: number, setSize: number): unknown {
    const editing = this.renaming === s.id;
    return html`<li class="session" data-session=${s.id} aria-posinset=${index + 1} aria-setsize=${setSize}>
      ${
        editing
          ? html`<input
            class="rename-input"
            type="text"
            aria-label="New title"
            maxlength="200"
            .value=${s.title}
            @keydown=${(e: KeyboardEvent) => {
              if (e.key === 'Enter') this.finishRename(s, e.target as HTMLInputElement, true);
              if (e.key === 'Escape') {
                e.stopPropagation();
                this.finishRename(s, e.target as HTMLInputElement, false);
              }
            }}
            @blur=${(e: Event) => this.finishRename(s, e.target as HTMLInputElement, true)}
          />`
          : html`<button
              class="resume link-button"
              title="Resume this session"
              @click=${() => this.resume(s)}
            >${s.title || 'Untitled'}</button>`
      }
      <div class="session-meta">${formatDate(s.updatedAt)} · ${s.messageCount} messages${
        s.interrupted
          ? html` <span class="badge interrupted" title="Its window closed while it ran; open it to Continue"
              >Interrupted</span
            >`
          : nothing
      }</div>
      ${s.excerpt ? html`<div class="excerpt">${s.excerpt}</div>` : nothing}
      <div class="session-actions">
        <button
          class="small-button"
          aria-label=${`Open ${s.title} in Editor`}
          title="Open in an editor tab (a running chat here keeps running)"
          @click=${() => this.ctx?.host.post({ type: 'openInEditor', sessionId: s.id })}
        >Open in Editor</button>
        <button
          class="small-button"
          aria-label=${`Rename ${s.title}`}
          @click=${() => this.startRename(s)}
        >Rename</button>
        <button
          class="small-button"
          aria-label=${`Delete ${s.title}`}
          @click=${() => this.deleteSession(s)}
        >Delete</button>
      </div>
    </li>`;
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { sessions, query, hasMore } = this.ctx.store.history;
    // A list that shrank (a delete, a new search) keeps a window inside it.
    const first = Math.max(0, Math.min(this.first, sessions.length - this.count));
    const end = Math.min(sessions.length, first + this.count);
    if (this.asked !== undefined && this.asked !== sessions.length) this.asked = undefined;
    this.spacing = { above: first * this.rowHeight, below: (sessions.length - end) * this.rowHeight };
    // -1: the total is not known yet while more pages follow.
    const setSize = hasMore ? -1 : sessions.length;
    return html`<div class="history">
      <div class="history-head">
        <button
          class="icon-button"
          aria-label="Back to chat"
          title="Back to chat"
          @click=${() => this.ctx?.store.setView('chat')}
        >${iconBack}</button>
        <h2>History</h2>
      </div>
      <input
        class="search"
        type="search"
        aria-label="Search history"
        placeholder="Search titles and content"
        @input=${(e: Event) => this.onSearch(e)}
      />
      ${
        this.deleted
          ? html`<div class="undo-bar" role="status">Deleted “${this.deleted.title}”. <vscode-button
                secondary
                @click=${() => this.undo()}
              >Undo</vscode-button></div>`
          : nothing
      }
      ${
        sessions.length === 0
          ? html`<p class="placeholder">${query ? `No session matches “${query}”.` : 'No past sessions yet.'}</p>`
          : html`<ul
              class="session-list"
              role="list"
              aria-label="History"
            >
              ${repeat(
                sessions.slice(first, end),
                (s) => s.id,
                (s, i) => this.renderItem(s, first + i, setSize),
              )}
            </ul>`
      }
    </div>`;
  }
}

defineElement('sx-history', SxHistory);
