// The composer: "Message" textbox (Enter sends, Shift+Enter is a new line), Send, Stop while
// a request is in flight, and "Compact now" (or /compact) once there is a conversation. The draft
// is view state: it survives the view being re-created. The pickers around the textbox (`@`, `/`,
// budget) are composer-pickers.ts; the built-in commands it carries out, builtin-commands.ts.
import { html, nothing } from 'lit';
import { live } from 'lit/directives/live.js';
import { newRequestId } from '../host';
import type { Topic } from '../store';
import { LightElement, defineElement } from './base';
import { MODE_LABELS } from './header';
import type { PickerItem } from '../reference-completions';
import { renderDraftChips } from './reference-chips';
import { renderReferencePicker } from './reference-picker';
import { classify, type MenuCommand } from '../composer-commands';
import { caretAllows, PromptRecall } from '../prompt-recall';
import type { Reference } from '../../extension/protocol';
import { renderSlashMenu } from './slash-menu';
import { renderScopePicker } from './scope-picker';
import { renderQueued } from './queued-list';
import { renderGoalBanner } from './goal-banner';
import { DraftImages, imageFiles, imagesForViewState, renderDraftImages } from '../composer-images';
import { runBuiltinCommand } from './builtin-commands';
import { budgetOf, ReferencePicker, renderBudgetPicker, SlashMenu } from './composer-pickers';
import { ComposingSignal } from '../composing-signal';

export class SxComposer extends LightElement {
  private draft: string | undefined;
  /** The budget picked for the next run; back to the settings' after it is sent. */
  private budget = '';
  /** The last draft request taken from the store (a rewound message's text). */
  private takenDraft = 0;
  /** The `@` listbox under the textbox while an `@word` (or `/mcp__word`) is typed; its items follow the store. */
  private readonly picker = new ReferencePicker((query) => this.ctx?.host.post({ type: 'referenceCandidates', query }));
  /** The `@` chips of the draft. */
  private refs: Reference[] | undefined;

  /** Images pasted, dropped or attached; kept in view state (within a budget) so a re-created view has them. */
  private readonly images = new DraftImages(
    () => {
      this.requestUpdate();
      this.ctx?.host.saveState({ images: imagesForViewState(this.images.items) });
    },
    (message) => this.ctx?.store.refuse(message),
  );
  private imagesRestored = false;

  private get references(): Reference[] {
    this.refs ??= this.ctx?.host.state.references ?? [];
    return this.refs;
  }

  private setReferences(refs: Reference[]): void {
    this.refs = refs;
    this.ctx?.host.saveState({ references: refs });
  }

  private pickerOptions(): PickerItem[] {
    return this.ctx ? this.picker.options(this.text, this.ctx.store) : [];
  }

  private complete(index: number): void {
    const start = this.picker.start;
    const item = this.pickerOptions()[index];
    const area = this.querySelector('textarea');
    if (start === undefined || !item || !area) return;
    const caret = area.selectionStart ?? area.value.length;
    const insert = item.kind === 'insert' ? `${item.insert} ` : '';
    if (item.kind === 'ref') {
      const { detail: _shown, ...ref } = item.ref;
      const others = this.references.filter((r) => !(r.kind === ref.kind && r.value === ref.value));
      this.setReferences([...others, ref]);
    }
    this.setDraft(`${area.value.slice(0, start)}${insert}${area.value.slice(caret)}`);
    this.picker.close();
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const at = start + insert.length;
      area.focus();
      area.setSelectionRange(at, at);
    });
  }

  private removeReference(index: number): void {
    this.setReferences(this.references.filter((_, i) => i !== index));
    this.requestUpdate();
    this.focus();
  }

  /** Up/Down through the workspace's earlier prompts. */
  private readonly recall = new PromptRecall();
  /** The `/` menu while a command name is typed. */
  private readonly menu = new SlashMenu();
  /** Typing tells the host to get the model's connection ready for the Send. */
  private readonly composing = new ComposingSignal((m) => this.ctx?.host.post(m));

  protected override topics(): Topic[] {
    return ['meta', 'structure', 'panels', 'project'];
  }

  private get text(): string {
    this.draft ??= this.ctx?.host.state.draft ?? '';
    return this.draft;
  }

  private onInput(event: Event): void {
    const area = event.target as HTMLTextAreaElement;
    this.setDraft(area.value);
    this.composing.typed(area.value, this.ctx?.store.chat.inFlightRequestId !== undefined);
    this.picker.follow(area);
    this.recall.reset();
    this.menu.reset();
    // The `/` menu lists the project's commands as they are now: asked for when the slash is typed.
    if (this.draft === '/') this.ctx?.host.post({ type: 'projectContext' });
    this.requestUpdate();
  }

  private setDraft(text: string): void {
    this.draft = text;
    this.ctx?.host.saveState({ draft: text });
  }

  /** The `/` menu's entries while a command name is being typed; empty when it is closed. */
  private menuItems(): MenuCommand[] {
    return this.menu.items(this.text, this.ctx?.store.project);
  }

  private pick(c: MenuCommand): void {
    this.setDraft(`/${c.name} `);
    this.menu.dismiss();
    this.requestUpdate();
    void this.updateComplete.then(() => {
      const area = this.querySelector('textarea');
      area?.setSelectionRange(area.value.length, area.value.length);
    });
  }

  /** Up/Down in the `/` menu, or through earlier prompts; true when the key was used. */
  private navigate(event: KeyboardEvent): boolean {
    const items = this.menuItems();
    if (items.length) {
      if (!this.menu.key(event, items, this.text, (c) => this.pick(c))) return false;
      this.requestUpdate();
      return true;
    }
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return false;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
    const area = event.target as HTMLTextAreaElement;
    if (!caretAllows(event.key, area.value, area.selectionStart, area.selectionEnd)) return false;
    const prompts = this.ctx?.store.prompts ?? [];
    const next = event.key === 'ArrowUp' ? this.recall.up(prompts, area.value) : this.recall.down(prompts);
    if (next === undefined) return false;
    this.setDraft(next);
    this.requestUpdate();
    return true;
  }

  private onKeyDown(event: KeyboardEvent): void {
    // The `@` listbox, when open, has its keys first.
    const n = this.pickerOptions().length;
    const used = this.picker.key(event, n);
    if (used) {
      event.preventDefault();
      event.stopPropagation();
      if (used === 'complete') this.complete(this.picker.active(n));
      this.requestUpdate();
      return;
    }
    if (!event.isComposing && this.navigate(event)) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    // Ctrl/Cmd+Enter steers the running turn (sends at once when nothing runs).
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing && !event.shiftKey) {
      event.preventDefault();
      this.steer();
      return;
    }
    if (
      event.key === 'Enter' &&
      !event.shiftKey &&
      !event.isComposing &&
      !event.altKey &&
      !event.ctrlKey &&
      !event.metaKey
    ) {
      event.preventDefault();
      this.send();
    }
  }

  send(): void {
    const ctx = this.ctx;
    const text = this.text.trim();
    if (!ctx || !text) return;
    const budget = budgetOf(this.budget);
    const command = classify(text, ctx.store.project);
    if (command.kind === 'refused') {
      ctx.store.refuse(command.message); // the draft stays, to be corrected
      return;
    }
    if (command.kind === 'memory') ctx.host.post({ type: 'addMemory', text: command.text });
    else if (command.kind === 'builtin') {
      if (!runBuiltinCommand(ctx, command.name, command.args)) return;
    } else if (ctx.store.chat.inFlightRequestId !== undefined) {
      // A turn runs: the message waits in "Queued" and goes when the turn completes.
      const mode = command.kind === 'host' && command.mode ? command.mode : ctx.store.meta.mode;
      ctx.host.post({ type: 'queue', text, mode, ...this.takeAttachments() });
    } else {
      ctx.host.post({
        type: 'send',
        requestId: newRequestId(),
        text,
        mode: command.kind === 'host' && command.mode ? command.mode : ctx.store.meta.mode,
        ...(budget ? { budget } : {}),
        ...this.takeAttachments(),
      });
      this.budget = '';
    }
    this.picker.close();
    this.recall.reset();
    this.draft = '';
    ctx.host.saveState({ draft: '' });
    this.requestUpdate();
  }

  /** The draft's `@` chips and images for the message that takes them; the composer lets go of both. */
  private takeAttachments() {
    const references = this.references;
    const images = this.images.take();
    this.setReferences([]);
    return { ...(references.length ? { references } : {}), ...(images.length ? { images } : {}) };
  }

  /** Delivers the draft into the running turn at its next step boundary (a new message when none runs). */
  steer(): void {
    const ctx = this.ctx;
    const text = this.text.trim();
    if (!ctx || !text) return;
    if (ctx.store.chat.inFlightRequestId === undefined) {
      this.send();
      return;
    }
    ctx.host.post({ type: 'steer', text, mode: ctx.store.meta.mode, ...this.takeAttachments() });
    this.recall.reset();
    this.draft = '';
    ctx.host.saveState({ draft: '' });
    this.requestUpdate();
  }

  stop(): void {
    const ctx = this.ctx;
    if (!ctx) return;
    const requestId = ctx.store.chat.inFlightRequestId;
    ctx.host.post(requestId ? { type: 'abort', requestId } : { type: 'abort' });
  }

  override focus(): void {
    this.querySelector('textarea')?.focus();
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    const kept = this.ctx?.host.state.images;
    if (this.ctx && !this.imagesRestored) {
      this.imagesRestored = true;
      if (kept?.length) this.images.set(kept);
    }
    const request = this.ctx?.store.draftRequest;
    if (request && request.n !== this.takenDraft) {
      // A rewind put the message back: it replaces the draft, so it can be edited and sent again.
      this.takenDraft = request.n;
      this.draft = request.text;
      this.ctx?.host.saveState({ draft: request.text });
      if (request.references) this.setReferences(request.references);
      if (request.images) this.images.set(request.images);
    }
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { store } = this.ctx;
    const inFlight = store.chat.inFlightRequestId !== undefined;
    const items = this.menuItems();
    const active = this.menu.active(items.length);
    const options = items.length ? [] : this.pickerOptions();
    const picked = this.picker.active(options.length);
    return html`<div
      class="composer"
      @dragover=${(e: DragEvent) => {
        if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
      }}
      @drop=${(e: DragEvent) => {
        const files = imageFiles(e.dataTransfer);
        if (!files.length) return;
        e.preventDefault();
        void this.images.add(files);
      }}
    >
      ${renderGoalBanner(store.goal, this.ctx.host)}
      ${renderQueued(store.queued, this.ctx.host, inFlight)}
      ${items.length ? renderSlashMenu(items, active, (c) => this.pick(c)) : nothing}
      ${renderDraftChips(this.references, (i) => this.removeReference(i))}
      ${renderDraftImages(this.images.items, (i) => this.images.remove(i))}
      <textarea
        aria-label="Message"
        aria-autocomplete="list"
        aria-controls=${items.length ? 'slash-menu' : options.length ? 'reference-picker' : nothing}
        aria-activedescendant=${
          items.length ? `slash-option-${active}` : options.length ? `reference-option-${picked}` : nothing
        }
        rows="3"
        placeholder=${
          inFlight
            ? 'Enter to queue for after this turn, Ctrl/Cmd+Enter to steer it now'
            : `Ask in ${MODE_LABELS[store.meta.mode]} mode — @ attaches, Enter sends, Shift+Enter: new line`
        }
        .value=${live(this.text)}
        @input=${(e: Event) => this.onInput(e)}
        @keydown=${(e: KeyboardEvent) => this.onKeyDown(e)}
        @paste=${(e: ClipboardEvent) => {
          const files = imageFiles(e.clipboardData);
          if (!files.length) return; // text pastes as text
          e.preventDefault();
          void this.images.add(files);
        }}
        @blur=${() => {
          this.picker.close();
          this.requestUpdate();
        }}
      ></textarea>
      ${options.length ? renderReferencePicker(options, picked, (i) => this.complete(i)) : nothing}
      ${
        store.meta.mode === 'research' && store.meta.researchScope
          ? renderScopePicker(store.meta.researchScope, this.ctx.host, 'sx-scope-composer')
          : nothing
      }
      <div class="composer-actions">
        <span class="composer-hint">Shift+Tab: mode · Esc Esc: stop</span>
        <span class="spacer"></span>
        <button
          class="link-button"
          title="Attach an image (or paste or drop one into the message)"
          @click=${() => this.querySelector<HTMLInputElement>('input.image-picker')?.click()}
        >Attach image</button>
        <input
          class="image-picker"
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          multiple
          hidden
          @change=${(e: Event) => {
            const input = e.target as HTMLInputElement;
            void this.images.add([...(input.files ?? [])]);
            input.value = '';
          }}
        />
        ${
          !inFlight && store.chat.messages.length >= 2
            ? html`<button
                class="link-button"
                title="Summarise the older turns into a brief now (or type /compact); the originals are kept"
                @click=${() => this.ctx?.host.post({ type: 'compactNow' })}
              >Compact now</button>`
            : nothing
        }
        ${renderBudgetPicker(this.budget, (choice) => {
          this.budget = choice;
        })}
        ${
          inFlight
            ? html`<vscode-button
                  secondary
                  title="Deliver this message to the running turn at its next step (Ctrl/Cmd+Enter)"
                  @click=${() => this.steer()}
                  >Steer</vscode-button
                >
                <vscode-button secondary @click=${() => this.stop()}>Stop</vscode-button>`
            : nothing
        }
        <vscode-button @click=${() => this.send()}>Send</vscode-button>
      </div>
    </div>`;
  }
}

defineElement('sx-composer', SxComposer);
