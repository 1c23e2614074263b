// The rewind preview (what "Rewind to here" or an edited message would put back, with the choices)
// and, after a rewind, what it did with a Redo button. Shown between the conversation and the composer.
import { html, nothing, type TemplateResult } from 'lit';
import type { RewindFileView, RewindPreview, RewindScope } from '../../extension/protocol';
import { newRequestId } from '../host';
import type { Topic } from '../store';
import { LightElement, defineElement } from './base';

const ACTION_LABELS: Record<RewindFileView['action'], string> = {
  restore: 'restore',
  delete: 'delete (the agent created it)',
  unchanged: 'unchanged',
  skip: 'cannot rewind',
};

const QUOTE_CHARS = 80;

export class SxRewindPanel extends LightElement {
  /** User-changed files the user ticked to overwrite anyway, for the preview on screen. */
  private overwrite = new Set<string>();
  private previewShown: RewindPreview | undefined;
  /** Set once a choice was posted, so a double click cannot rewind twice. */
  private chosen = false;

  protected override topics(): Topic[] {
    return ['panels'];
  }

  private choose(scope: RewindScope): void {
    const ctx = this.ctx;
    const r = ctx?.store.rewind;
    if (!ctx || !r?.preview || this.chosen) return;
    this.chosen = true;
    const overwrite = [...this.overwrite];
    if (r.edit === undefined) {
      ctx.host.post({ type: 'rewind', messageId: r.messageId, scope, overwrite });
      this.requestUpdate();
      return;
    }
    this.sendEdit(r.messageId, r.edit, scope === 'both', overwrite);
  }

  private sendEdit(messageId: string, text: string, rewindFiles: boolean, overwrite: string[]): void {
    const ctx = this.ctx;
    if (!ctx) return;
    ctx.host.post({
      type: 'editResend',
      messageId,
      requestId: newRequestId(),
      text,
      mode: ctx.store.meta.mode,
      rewindFiles,
      overwrite,
    });
    ctx.store.cancelRewind();
  }

  protected override updated(): void {
    // An edited message whose turns changed no files needs no question: it is sent at once.
    const r = this.ctx?.store.rewind;
    if (r?.preview && r.edit !== undefined && !r.preview.fileChanges && !this.chosen) {
      this.chosen = true;
      this.sendEdit(r.messageId, r.edit, false, []);
    }
  }

  private renderFile(f: RewindFileView): TemplateResult {
    const userChanged = f.changedByUser && (f.action === 'restore' || f.action === 'delete');
    return html`<li class="rewind-file ${f.action}">
      <span class="rewind-action">${ACTION_LABELS[f.action]}</span>
      <code>${f.path}</code>
      ${f.action === 'skip' && f.reason ? html`<span class="rewind-reason">— ${f.reason}</span>` : nothing}
      ${
        f.editedBetweenTurns && f.action !== 'skip'
          ? html`<span class="rewind-user-change">you also changed it between the agent's turns: rewinding it undoes
              those edits too</span>`
          : nothing
      }
      ${
        userChanged
          ? html`<label class="rewind-user-change">
              <input
                type="checkbox"
                aria-label=${`Overwrite my changes to ${f.path}`}
                .checked=${this.overwrite.has(f.path)}
                @change=${(e: Event) => {
                  if ((e.target as HTMLInputElement).checked) this.overwrite.add(f.path);
                  else this.overwrite.delete(f.path);
                }}
              />
              changed by you since — kept unless ticked</label>`
          : nothing
      }
    </li>`;
  }

  private renderPreview(p: RewindPreview, edit: string | undefined): TemplateResult {
    const quote = p.text.length > QUOTE_CHARS ? `${p.text.slice(0, QUOTE_CHARS)}…` : p.text;
    const disabled = this.chosen;
    const cancel = () => this.ctx?.store.cancelRewind();
    const actions =
      edit === undefined
        ? html`<vscode-button ?disabled=${disabled} @click=${() => this.choose('both')}
              >Files and conversation</vscode-button
            >
            <vscode-button secondary ?disabled=${disabled || !p.fileChanges} @click=${() => this.choose('files')}
              >Files only</vscode-button
            >
            <vscode-button secondary ?disabled=${disabled} @click=${() => this.choose('conversation')}
              >Conversation only</vscode-button
            >
            <vscode-button secondary @click=${cancel}>Cancel</vscode-button>`
        : html`<vscode-button ?disabled=${disabled} @click=${() => this.choose('both')}
              >Send and rewind files</vscode-button
            >
            <vscode-button secondary ?disabled=${disabled} @click=${() => this.choose('conversation')}
              >Send, keep files</vscode-button
            >
            <vscode-button secondary @click=${cancel}>Cancel</vscode-button>`;
    return html`<section class="rewind card" role="dialog" aria-label="Rewind preview">
      <div class="rewind-head">
        <strong>${edit === undefined ? 'Rewind to here' : 'Edit and resend'}</strong>: back to before “${quote}”
      </div>
      <p class="rewind-summary">${p.summary}.</p>
      ${
        p.files.length
          ? html`<ul class="rewind-files" aria-label="Files">${p.files.map((f) => this.renderFile(f))}</ul>`
          : nothing
      }
      ${p.commandsNote ? html`<p class="rewind-note">${p.commandsNote}</p>` : nothing}
      ${
        p.messagesRemoved
          ? html`<p class="rewind-note">
              ${
                edit === undefined
                  ? 'Rewinding the conversation takes'
                  : 'The edited message replaces this one; that takes'
              }
              ${p.messagesRemoved} message${p.messagesRemoved === 1 ? '' : 's'} out of this chat. They stay in
              History as an earlier branch.
            </p>`
          : nothing
      }
      <div class="actions">${actions}</div>
    </section>`;
  }

  private renderNotice(): TemplateResult | typeof nothing {
    const ctx = this.ctx;
    if (!ctx) return nothing;
    const { redo, rewindNotice } = ctx.store;
    const text = rewindNotice ?? redo?.summary;
    if (!text) return nothing;
    return html`<section class="rewind-notice card" role="status" aria-label="Rewind">
      <span>${text}.</span>
      ${
        redo
          ? html`<vscode-button
              secondary
              title="Undo the rewind: put the files and the conversation back as they were"
              @click=${() => ctx.host.post({ type: 'redoRewind' })}
              >Redo</vscode-button
            >`
          : nothing
      }
      <button class="small-button" @click=${() => ctx.store.dismissRewindNotice()}>Dismiss</button>
    </section>`;
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const r = this.ctx.store.rewind;
    if (r?.preview !== this.previewShown) {
      // A new preview: fresh choices.
      this.previewShown = r?.preview;
      this.overwrite = new Set();
      this.chosen = false;
    }
    if (!r) return this.renderNotice();
    if (!r.preview) {
      return html`<section class="rewind card" role="dialog" aria-label="Rewind preview" aria-busy="true">
        <p>Preparing the rewind preview…</p>
      </section>`;
    }
    return this.renderPreview(r.preview, r.edit);
  }
}

defineElement('sx-rewind-panel', SxRewindPanel);
