// The YAML frontmatter of Claude Code's command and skill files, read without a YAML library: those
// files use flat `key: value` pairs, quoted strings and lists (`[a, b]` or `- item` lines). Anything
// richer is kept as its raw text, never an error — a user's file must load as it is.

export interface Frontmatter {
  /** Keys in lower case; a value is a string or a list of strings. */
  fields: Record<string, string | string[]>;
  /** The text after the closing `---` (the whole text when there is no frontmatter). */
  body: string;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;

export function parseFrontmatter(text: string): Frontmatter {
  const open = OPEN.exec(text);
  if (!open) return { fields: {}, body: text };
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!close) return { fields: {}, body: text };
  const fields: Record<string, string | string[]> = {};
  let listKey: string | undefined;
  for (const line of rest.slice(0, close.index).split(/\r?\n/)) {
    const item = /^\s+-\s*(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey) {
      const list = fields[listKey];
      fields[listKey] = [...(Array.isArray(list) ? list : []), unquote(item[1] ?? '')];
      continue;
    }
    const pair = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    const key = (pair[1] ?? '').toLowerCase();
    const value = (pair[2] ?? '').trim();
    listKey = value === '' ? key : undefined;
    // Kept as written: `argument-hint: [file] [focus]` is a hint, not a list; fieldList splits `[a, b]`.
    fields[key] = unquote(value);
  }
  return { fields, body: rest.slice(close.index + close[0].length) };
}

/** One field as a string (a list joined by ", "); undefined when absent or empty. */
export function fieldText(fm: Frontmatter, key: string): string | undefined {
  const v = fm.fields[key];
  const s = Array.isArray(v) ? v.join(', ') : v;
  return s ? s : undefined;
}

/** One field as a list: `[a, b]`, `- a` lines, or a comma-separated string (Claude Code accepts all three). */
export function fieldList(fm: Frontmatter, key: string): string[] | undefined {
  const v = fm.fields[key];
  if (v === undefined || v === '') return undefined;
  if (Array.isArray(v)) return v.filter(Boolean);
  return splitList(/^\[[^[\]]*\]$/.test(v) ? v.slice(1, -1) : v);
}

function splitList(s: string): string[] {
  // Commas inside parentheses belong to a rule such as Bash(git add:*, git commit:*).
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((x) => unquote(x.trim())).filter(Boolean);
}

function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'"))))
    return t.slice(1, -1);
  return t;
}
