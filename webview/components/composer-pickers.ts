// The pickers around the composer's textbox: the `@` listbox (files, folders, MCP resources and prompts)
// while an `@word` or `/mcp__word` is typed, the `/` menu while a command name is typed, and the budget of
// the next run. Each keeps only what it shows; the composer owns the draft and asks them about keys.
import { html } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ProjectContextInfo } from '../../extension/protocol';
import { type MenuCommand, menuCommands, typedCommandName } from '../composer-commands';
import { hostQuery, type PickerItem, type PickerQuery, pickerItems, pickerQuery } from '../reference-completions';
import type { ChatStore } from '../store';

/** The `@` listbox: the word being completed, the highlighted option, and what the host was last asked. */
export class ReferencePicker {
  private query: (PickerQuery & { active: number }) | undefined;
  private askedQuery: string | undefined;

  /** `askHost` asks the host for files and folders matching a query (the store receives the answer). */
  constructor(private readonly askHost: (query: string) => void) {}

  /** Where the completed word starts in the draft, while the listbox is open. */
  get start(): number | undefined {
    return this.query?.start;
  }

  /** Follows the caret: opens on an `@word`, closes elsewhere, asks the host once per new query. */
  follow(area: HTMLTextAreaElement): void {
    const q = pickerQuery(area.value, area.selectionStart ?? area.value.length);
    this.query = q ? { ...q, active: 0 } : undefined;
    const hq = q ? hostQuery(q.word) : undefined;
    if (hq !== undefined && hq !== this.askedQuery) {
      this.askedQuery = hq;
      this.askHost(hq);
    }
  }

  close(): void {
    this.query = undefined;
  }

  options(text: string, store: ChatStore): PickerItem[] {
    return this.query ? pickerItems(this.query, text, store.referenceFiles, store.mcp.servers) : [];
  }

  /** The highlighted option among `count`. */
  active(count: number): number {
    return Math.min(this.query?.active ?? 0, Math.max(0, count - 1));
  }

  /**
   * The listbox's keys while it has `count` options: 'complete' when the highlighted one is chosen,
   * 'handled' for a move or Escape, undefined when the key is not the listbox's.
   */
  key(event: KeyboardEvent, count: number): 'complete' | 'handled' | undefined {
    const q = this.query;
    if (!q || !count || event.shiftKey) return undefined;
    if (!['ArrowDown', 'ArrowUp', 'Tab', 'Enter', 'Escape'].includes(event.key)) return undefined;
    if (event.key === 'Escape') this.query = undefined;
    else if (event.key === 'ArrowDown') q.active = (Math.min(q.active, count - 1) + 1) % count;
    else if (event.key === 'ArrowUp') q.active = (Math.min(q.active, count - 1) + count - 1) % count;
    else return 'complete';
    return 'handled';
  }
}

/** The `/` menu: open while a command name is typed, until Escape closes it for that name. */
export class SlashMenu {
  private highlighted = 0;
  private dismissed = false;

  /** The menu's entries for the draft; empty when it is closed. */
  items(text: string, project: ProjectContextInfo | undefined): MenuCommand[] {
    const typed = typedCommandName(text);
    if (typed === undefined || this.dismissed) return [];
    return menuCommands(project, typed);
  }

  /** The draft changed: the menu opens again, from its first entry. */
  reset(): void {
    this.dismissed = false;
    this.highlighted = 0;
  }

  dismiss(): void {
    this.dismissed = true;
  }

  active(count: number): number {
    return Math.min(this.highlighted, Math.max(0, count - 1));
  }

  /**
   * Up/Down, Enter, Tab and Escape while the menu shows `items`; true when the key was the menu's.
   * `pick` completes the chosen command into the draft.
   */
  key(event: KeyboardEvent, items: MenuCommand[], text: string, pick: (c: MenuCommand) => void): boolean {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : items.length - 1;
      this.highlighted = (this.highlighted + step) % items.length;
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      const chosen = items[this.active(items.length)];
      // A name typed in full runs on Enter (`/compact`, `/clear`); Tab always completes.
      if (event.key === 'Enter' && items.some((c) => `/${c.name}` === text)) return false;
      if (chosen) pick(chosen);
    } else if (event.key === 'Escape') this.dismissed = true;
    else return false;
    return true;
  }
}

/** The quick budget picker: the dollar cap of the next run ('' = sextant.budget.maxCostUsd, 'none' = no cap). */
const BUDGET_CHOICES = [
  ['', 'Budget'],
  ['0.1', '≤ $0.10'],
  ['0.5', '≤ $0.50'],
  ['2', '≤ $2'],
  ['10', '≤ $10'],
  ['none', 'No cap'],
] as const;

/** The `budget` of a `send` for the picked choice (none: the settings' caps apply). */
export function budgetOf(choice: string): { maxCostUsd: number | null } | undefined {
  return choice === '' ? undefined : { maxCostUsd: choice === 'none' ? null : Number(choice) };
}

export function renderBudgetPicker(choice: string, onChange: (choice: string) => void): unknown {
  return html`<select
    class="budget-picker"
    aria-label="Budget for this run"
    title="Most the next run may spend (sextant.budget.maxCostUsd otherwise)"
    @change=${(e: Event) => onChange((e.target as HTMLSelectElement).value)}
  >
    ${BUDGET_CHOICES.map(
      ([value, label]) => html`<option value=${value} .selected=${live(choice === value)}>${label}</option>`,
    )}
  </select>`;
}
