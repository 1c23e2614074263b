// A memory the agent proposes (the `remember` tool), inside that call's card: a `group` named "Memory"
// with the fact, the model's reason, which file it goes to (this workspace's or the user's own), and
// "Keep memory", "Edit memory" (the text becomes an editable box; Keep then keeps the edited text) and
// "Drop memory". The host writes the file (a path it fixes) and refuses a secret there too.
import { html, LitElement, nothing } from 'lit';
import { MEMORY_MAX_CHARS, type MemoryScope, type PendingMemory } from '../../extension/protocol';
import type { HostChannel } from '../host';
import { defineElement } from './base';

export class SxMemoryCard extends LitElement {
  static override properties = {
    callId: { attribute: false },
    memory: { attribute: false },
    host: { attribute: false },
  };
  declare callId: string;
  declare memory: PendingMemory | undefined;
  declare host: HostChannel | undefined;
  private draftFor: string | undefined;
  private text = '';
  private scope: MemoryScope = 'workspace';
  private editing = false;
  private sent = false;
  private problem = '';

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override willUpdate(): void {
    if (this.memory && this.callId !== this.draftFor) {
      this.draftFor = this.callId;
      this.text = this.memory.text;
      this.scope = this.memory.scope;
      this.editing = false;
      this.sent = false;
      this.problem = '';
    }
  }

  private keep(): void {
    const text = this.text.trim();
    if (!text) {
      this.problem = 'Write the memory first, or drop it.';
      this.requestUpdate();
      return;
    }
    this.reply({ decision: 'keep', text, scope: this.scope });
  }

  private reply(reply: { decision: 'keep'; text: string; scope: MemoryScope } | { decision: 'drop' }): void {
    if (this.sent || !this.host) return;
    this.sent = true;
    this.requestUpdate();
    this.host.post({ type: 'memoryReply', callId: this.callId, reply });
  }

  private startEdit(): void {
    this.editing = true;
    this.requestUpdate();
    void this.updateComplete.then(() => this.querySelector<HTMLTextAreaElement>('textarea.memory-text')?.focus());
  }

  protected override render(): unknown {
    const m = this.memory;
    if (!m) return nothing;
    const files = (['workspace', 'user'] as const).filter((s) => m.files[s]);
    return html`<div class="memory-card" role="group" aria-label="Memory">
      <p class="memory-intro">Sextant would like to remember:</p>
      ${
        this.editing
          ? html`<textarea
              class="memory-text"
              aria-label="Memory text"
              rows="3"
              maxlength=${MEMORY_MAX_CHARS}
              .value=${this.text}
              ?disabled=${this.sent}
              @input=${(e: Event) => {
                this.text = (e.target as HTMLTextAreaElement).value;
                this.problem = '';
              }}
            ></textarea>`
          : html`<blockquote class="memory-text">${this.text}</blockquote>`
      }
      ${m.reason ? html`<p class="memory-reason">Why: ${m.reason}</p>` : nothing}
      ${
        files.length > 1
          ? html`<div class="memory-scope" role="radiogroup" aria-label="Keep in">
              ${files.map(
                (s) => html`<label class="option">
                  <input
                    type="radio"
                    name=${`memory-scope-${this.callId}`}
                    .checked=${this.scope === s}
                    ?disabled=${this.sent}
                    @change=${() => {
                      this.scope = s;
                      this.requestUpdate();
                    }}
                  />
                  <span>${s === 'workspace' ? 'This workspace' : 'You, everywhere'}</span>
                  <code>${m.files[s]}</code>
                </label>`,
              )}
            </div>`
          : html`<p class="memory-file">Kept in <code>${m.files[this.scope]}</code></p>`
      }
      ${this.problem ? html`<p class="form-problem" role="alert">${this.problem}</p>` : nothing}
      <div class="memory-actions">
        <vscode-button ?disabled=${this.sent} @click=${() => this.keep()}>Keep memory</vscode-button>
        ${
          this.editing
            ? nothing
            : html`<vscode-button secondary ?disabled=${this.sent} @click=${() => this.startEdit()}
                >Edit memory</vscode-button
              >`
        }
        <vscode-button secondary ?disabled=${this.sent} @click=${() => this.reply({ decision: 'drop' })}
          >Drop memory</vscode-button
        >
      </div>
    </div>`;
  }
}

defineElement('sx-memory-card', SxMemoryCard);
