// The `@` listbox's offers for the word before the caret: the editor's references (`@selection`,
// `@problems`, `@terminal`, `@git`), files and folders from the host's search (fuzzy, .gitignore
// honoured), a URL typed in full, and the connected MCP servers' resources (the existing MCP picker's
// items, `@server:uri`). `/mcp__…` prompts are completed as text, as before.
import type { McpServerView, ReferenceCandidate } from '../extension/protocol';
import { mcpCompletions } from './mcp-completions';

export type PickerItem =
  | { kind: 'ref'; ref: ReferenceCandidate }
  /** Text that replaces the word (an MCP prompt's name). */
  | { kind: 'insert'; insert: string; detail: string };

export interface PickerQuery {
  /** Where the word starts in the text. */
  start: number;
  /** The word, `@` included. */
  word: string;
}

const MAX_ITEMS = 12;

const SPECIALS: ReferenceCandidate[] = [
  { kind: 'selection', value: '', label: '@selection', detail: 'the selected text in the editor' },
  { kind: 'problems', value: '', label: '@problems', detail: "the workspace's problems (diagnostics)" },
  { kind: 'terminal', value: '', label: '@terminal', detail: 'the last command output of the active terminal' },
  { kind: 'git', value: '', label: '@git', detail: 'the working-tree diff (git diff HEAD)' },
];

/** The `@word` or `/mcp__word` being typed at the caret, if any. */
export function pickerQuery(text: string, caret: number): PickerQuery | undefined {
  const m = /(^|\s)(@\S*|\/mcp__\S*)$/.exec(text.slice(0, caret));
  if (!m) return undefined;
  return { start: caret - m[2].length, word: m[2] };
}

/** What the host is asked to search for a word: the text after `@` (after `@problems:` for a file's problems). */
export function hostQuery(word: string): string | undefined {
  if (!word.startsWith('@') || /^@https?:/i.test(word)) return undefined;
  const q = word.startsWith('@problems:') ? word.slice('@problems:'.length) : word.slice(1);
  return q.includes(':') ? undefined : q;
}

export function pickerItems(
  q: PickerQuery,
  text: string,
  files: { query: string; items: ReferenceCandidate[] } | undefined,
  servers: readonly McpServerView[],
): PickerItem[] {
  const word = q.word;
  const mcp = mcpCompletions(text.slice(0, q.start + word.length), q.start + word.length, servers);
  if (!word.startsWith('@'))
    return (mcp?.items ?? []).map((i) => ({ kind: 'insert' as const, insert: i.insert, detail: i.detail }));
  const out: PickerItem[] = [];
  if (/^@https?:\/\/\S+\.\S+/i.test(word)) {
    out.push({ kind: 'ref', ref: { kind: 'url', value: word.slice(1), label: word, detail: 'fetch this page' } });
    return out;
  }
  const typed = word.slice(1).toLowerCase();
  for (const s of SPECIALS)
    if (s.label.slice(1).startsWith(typed) && typed.length < s.label.length) out.push({ kind: 'ref', ref: s });
  for (const i of mcp?.items ?? [])
    out.push({
      kind: 'ref',
      ref: { kind: 'mcp', value: i.insert.slice(1), label: i.insert, detail: i.detail || 'MCP resource' },
    });
  const hq = hostQuery(word);
  if (files && hq !== undefined && files.query === hq) {
    const forProblems = word.startsWith('@problems:');
    for (const f of files.items) {
      if (forProblems && f.kind !== 'file') continue;
      out.push({
        kind: 'ref',
        ref: forProblems
          ? { kind: 'problems', value: f.value, label: `@problems:${f.value}`, detail: 'problems of this file' }
          : f,
      });
    }
  }
  return out.slice(0, MAX_ITEMS);
}
