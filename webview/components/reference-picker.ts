// The `@` listbox under the composer (combobox pattern: the textarea keeps focus and points at the
// active option; Up/Down move, Enter or Tab choose, Escape closes).
import { html, nothing, type TemplateResult } from 'lit';
import type { PickerItem } from '../reference-completions';

const KIND_LABELS = {
  file: 'file',
  folder: 'folder',
  selection: 'editor',
  problems: 'problems',
  terminal: 'terminal',
  git: 'git',
  url: 'web page',
  mcp: 'MCP resource',
} as const;

export function renderReferencePicker(
  items: PickerItem[],
  active: number,
  choose: (index: number) => void,
): TemplateResult {
  return html`<ul
    id="reference-picker"
    class="mcp-completions reference-picker"
    role="listbox"
    aria-label="References to attach"
  >
    ${items.map((item, i) => {
      const name = item.kind === 'ref' ? item.ref.label : item.insert;
      const detail = item.kind === 'ref' ? (item.ref.detail ?? KIND_LABELS[item.ref.kind]) : item.detail;
      return html`<li
        role="option"
        id=${`reference-option-${i}`}
        aria-selected=${i === active ? 'true' : 'false'}
        class=${i === active ? 'active' : ''}
        @mousedown=${(e: Event) => {
          e.preventDefault(); // keeps focus in the textarea
          choose(i);
        }}
      >
        <span class="mcp-insert">${name}</span>
        ${detail ? html`<span class="mcp-detail">${detail}</span>` : nothing}
      </li>`;
    })}
  </ul>`;
}
