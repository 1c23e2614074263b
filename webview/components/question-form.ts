// The ask-user form: 1–4 questions, each with 2–4 options (single or multi-select) and an
// automatic "Other" with free text. Submitting posts one answer per question.
import { html, nothing } from 'lit';
import type { PendingQuestion } from '../../extension/protocol';
import { LightElement, defineElement } from './base';

const OTHER = '__other__';

interface Draft {
  selected: Set<string>;
  other: string;
}

export class SxQuestionForm extends LightElement {
  static override properties = { ...LightElement.properties, pending: { attribute: false } };
  declare pending: PendingQuestion | undefined;
  private drafts: Draft[] = [];
  private draftsFor: string | undefined;
  private problem = '';
  private sent = false;

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (this.pending && this.pending.callId !== this.draftsFor) {
      this.draftsFor = this.pending.callId;
      this.drafts = this.pending.questions.map(() => ({ selected: new Set<string>(), other: '' }));
      this.problem = '';
      this.sent = false;
    }
  }

  private toggle(qi: number, value: string, multi: boolean, checked: boolean): void {
    const d = this.drafts[qi];
    if (!multi) d.selected.clear();
    if (checked) d.selected.add(value);
    else d.selected.delete(value);
    this.problem = '';
    this.requestUpdate();
  }

  private submit(event: Event): void {
    event.preventDefault();
    const p = this.pending;
    if (!p || !this.ctx || this.sent) return;
    const missing = this.drafts.findIndex((d) => d.selected.size === 0 || (d.selected.has(OTHER) && !d.other.trim()));
    if (missing >= 0) {
      const other = this.drafts[missing].selected.has(OTHER) ? ' (type your answer for "Other")' : '';
      this.problem = `Answer question ${missing + 1}${other}.`;
      this.requestUpdate();
      return;
    }
    const answers = this.drafts.map((d) => {
      const selected = [...d.selected].filter((v) => v !== OTHER);
      return d.selected.has(OTHER) ? { selected, other: d.other.trim() } : { selected };
    });
    this.sent = true;
    this.requestUpdate();
    this.ctx.host.post({ type: 'answer', callId: p.callId, answers });
  }

  protected override render(): unknown {
    const p = this.pending;
    if (!p || !this.ctx) return nothing;
    return html`<form
      class="question-form card"
      aria-label="Question from Sextant"
      @submit=${(e: Event) => this.submit(e)}
    >
      ${p.questions.map((q, qi) => {
        const multi = q.multiSelect;
        const d = this.drafts[qi];
        const name = `q-${p.callId}-${qi}`;
        return html`<fieldset>
          <legend>${q.header ? html`<span class="badge">${q.header}</span> ` : nothing}${q.question}</legend>
          ${[
            ...q.options.map((o) => ({ value: o.label, label: o.label, description: o.description })),
            { value: OTHER, label: 'Other', description: undefined },
          ].map(
            (o) => html`<label class="option">
              <input
                type=${multi ? 'checkbox' : 'radio'}
                name=${name}
                .checked=${d.selected.has(o.value)}
                ?disabled=${this.sent}
                @change=${(e: Event) => this.toggle(qi, o.value, multi, (e.target as HTMLInputElement).checked)}
              />
              <span>${o.label}</span>${
                o.description ? html`<span class="option-description"> — ${o.description}</span>` : nothing
              }
            </label>`,
          )}
          ${
            d.selected.has(OTHER)
              ? html`<input
                class="other-text"
                type="text"
                aria-label=${p.questions.length > 1 ? `Other answer ${qi + 1}` : 'Other answer'}
                placeholder="Your answer"
                .value=${d.other}
                ?disabled=${this.sent}
                @input=${(e: Event) => (d.other = (e.target as HTMLInputElement).value)}
              />`
              : nothing
          }
        </fieldset>`;
      })}
      ${this.problem ? html`<p class="form-problem" role="alert">${this.problem}</p>` : nothing}
      <vscode-button type="submit" ?disabled=${this.sent}>${this.sent ? 'Submitted' : 'Submit'}</vscode-button>
    </form>`;
  }
}

defineElement('sx-question-form', SxQuestionForm);
