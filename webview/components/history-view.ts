// Past sessions: newest first, searchable (title and content, with the matching excerpt),
// rename in place, delete with Undo, click to resume.
import { html, nothing } from 'lit';
import type { SessionSummary } from '../../extension/protocol';
import type { Topic } from '../store';
import { LightElement, defineElement } from './base';
import { iconBack } from './icons';

export const SEARCH_DEBOUNCE_MS = 250;

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

  protected override topics(): Topic[] {
    return ['history'];
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.searchTimer);
  }

  private onSearch(event: Event): void {
    const query = (event.target as HTMLInputElement).value;
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => {
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

  private renderItem(s: SessionSummary): unknown {
    const editing = this.renaming === s.id;
    return html`<li class="session" data-session=${s.id}>
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
      <div class="session-meta">${formatDate(s.updatedAt)} · ${s.messageCount} messages</div>
      ${s.excerpt ? html`<div class="excerpt">${s.excerpt}</div>` : nothing}
      <div class="session-actions">
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
    const { sessions, query } = this.ctx.store.history;
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
          : html`<ul class="session-list" role="list" aria-label="History">
              ${sessions.map((s) => this.renderItem(s))}
            </ul>`
      }
    </div>`;
  }
}

defineElement('sx-history', SxHistory);
