// One block of model Markdown. Re-renders only when its text changes, and while streaming
// re-parses only the unfinished tail: finished blocks (text before the last blank line outside a
// code fence) are rendered once and kept, so a long answer does not cost more per frame as it grows.
import { html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { stablePrefixLength } from '../markdown-chunks';
import { FILE_LINK } from '../markdown';
import { highlightCodeIn } from '../highlight-loader';
import { renderRichBlocksIn } from '../rich-blocks';
import { LightElement, defineElement } from './base';

interface Chunk {
  source: string;
  html: string;
}

export class SxMarkdown extends LightElement {
  static override properties = {
    ...LightElement.properties,
    text: { attribute: false },
    streaming: { attribute: false },
  };
  declare text: string;
  declare streaming: boolean;
  private chunks: Chunk[] = [];
  private tailHtml = '';

  constructor() {
    super();
    this.text = '';
    this.streaming = false;
    this.addEventListener('click', (e) => this.onClick(e));
    // Middle-click would open a link in a new window: links never navigate the view.
    this.addEventListener('auxclick', (e) => {
      if ((e.target as Element | null)?.closest?.('a')) e.preventDefault();
    });
  }

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    super.willUpdate(changed);
    if (!changed.has('text') && !changed.has('streaming') && !changed.has('ctx')) return;
    const md = this.ctx?.markdown;
    if (!md) return;
    const text = this.text;
    const done = this.chunks.reduce((n, c) => n + c.source.length, 0);
    const consistent = text.startsWith(this.chunks.map((c) => c.source).join(''));
    if (!this.streaming || !consistent) {
      // Final text, or text that is not an append: render once as a whole (exact Markdown semantics).
      this.chunks = [];
      this.tailHtml = md.render(text);
      return;
    }
    const stable = stablePrefixLength(text);
    if (stable > done) {
      const source = text.slice(done, stable);
      this.chunks = [...this.chunks, { source, html: md.render(source) }];
    }
    const rendered = Math.max(stable, done);
    this.tailHtml = md.render(text.slice(rendered));
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const chunks = this.chunks.map((c) => html`<div class="md-chunk">${unsafeHTML(c.html)}</div>`);
    return html`${chunks}<div class="md-chunk">${unsafeHTML(this.tailHtml)}</div>`;
  }

  protected override updated(): void {
    // Copy buttons are ours, added after sanitising (model output can never contain a <button>).
    for (const pre of this.querySelectorAll('pre')) {
      if (pre.parentElement?.classList.contains('code-block')) continue;
      const wrapper = document.createElement('div');
      wrapper.className = 'code-block';
      pre.replaceWith(wrapper);
      // A long line scrolls sideways: keyboard users reach the block with Tab and scroll with the arrows.
      pre.tabIndex = 0;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy-code';
      button.textContent = 'Copy';
      button.setAttribute('aria-label', 'Copy code');
      wrapper.append(button, pre);
    }
    // Finished blocks are highlighted once (Lit keeps their DOM); the streaming tail only at the end,
    // since it is re-rendered on every frame until then.
    const blocks = [...this.querySelectorAll<HTMLElement>('.md-chunk')];
    const finished = this.streaming ? blocks.slice(0, -1) : blocks;
    // A wide table scrolls sideways (styles.css): keyboard users reach it with Tab.
    for (const table of this.querySelectorAll('table')) table.tabIndex = 0;
    // Math and charts are drawn where their block is finished; the source shows until then.
    void renderRichBlocksIn(finished);
    highlightCodeIn(finished);
  }

  private onClick(event: MouseEvent): void {
    const target = event.target as Element | null;
    const copy = target?.closest?.('button.copy-code');
    if (copy) {
      const code = copy.parentElement?.querySelector('pre')?.textContent ?? '';
      void copyText(code).then((ok) => {
        copy.textContent = ok ? 'Copied' : 'Copy failed';
        setTimeout(() => (copy.textContent = 'Copy'), 1500);
      });
      return;
    }
    const link = target?.closest?.('a');
    if (!link) return;
    event.preventDefault();
    const href = link.getAttribute('href') ?? '';
    if (/^(?:https?:|mailto:)/i.test(href)) this.ctx?.host.post({ type: 'openLink', url: href });
    const file = FILE_LINK.exec(href);
    if (file?.[1]) {
      const line = file[2] ? Number(file[2]) : undefined;
      this.ctx?.host.post({ type: 'openFile', path: file[1], ...(line ? { line } : {}) });
    }
  }
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

defineElement('sx-markdown', SxMarkdown);
