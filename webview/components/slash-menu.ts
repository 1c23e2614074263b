// The `/` menu above the composer: built-in and project commands matching what follows the slash.
// The textarea keeps focus (combobox pattern): Up/Down move, Enter or Tab choose, Escape closes.
import { html, type TemplateResult } from 'lit';
import type { MenuCommand } from '../composer-commands';

export function renderSlashMenu(items: MenuCommand[], active: number, pick: (c: MenuCommand) => void): TemplateResult {
  return html`<ul class="slash-menu" role="listbox" id="slash-menu" aria-label="Commands">
    ${items.map(
      (c, i) => html`<li
        role="option"
        id=${`slash-option-${i}`}
        aria-selected=${i === active ? 'true' : 'false'}
        class=${i === active ? 'active' : ''}
        @mousedown=${(e: Event) => {
          e.preventDefault(); // keeps focus in the textarea
          pick(c);
        }}
      >
        <span class="slash-name">/${c.name}</span>
        ${c.argumentHint ? html`<span class="muted">${c.argumentHint}</span>` : ''}
        <span class="slash-description">${c.description}</span>
        <span class="muted slash-source">${c.source}</span>
      </li>`,
    )}
  </ul>`;
}
