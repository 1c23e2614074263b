// The YAML frontmatter of Claude Code's command, skill and agent files, read with a real YAML 1.2 parser
// (eemeli/yaml): block scalars (`description: >-`), continuation lines, `# comments` and escapes in double
// quotes mean what YAML says. The callers' shape stays flat — each top-level key is a string or a list of
// strings — and a file whose YAML is broken gets a `problem` naming the line, for its list to report.
import { isSeq, parseDocument } from 'yaml';

export interface Frontmatter {
  /** Keys in lower case; a value is a string or a list of strings. */
  fields: Record<string, string | string[]>;
  /** The text after the closing `---` (the whole text when there is no frontmatter). */
  body: string;
  /** Why the frontmatter could not be read (`line 3: …`, lines counted in the whole file); fields are then empty. */
  problem?: string;
}

/** Frontmatter is a few fields: anything larger is not a command or skill header, and is not parsed. */
export const FRONTMATTER_MAX_BYTES = 64 * 1024;
/** Aliases (`*x`) a header may expand: a few are harmless, many are a "billion laughs" bomb. */
const MAX_ALIAS_COUNT = 16;

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;

export function parseFrontmatter(text: string): Frontmatter {
  const open = OPEN.exec(text);
  if (!open) return { fields: {}, body: text };
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!close) return { fields: {}, body: text };
  const body = rest.slice(close.index + close[0].length);
  const source = rest.slice(0, close.index);
  if (Buffer.byteLength(source, 'utf8') > FRONTMATTER_MAX_BYTES)
    return { fields: {}, body, problem: `the frontmatter is larger than ${FRONTMATTER_MAX_BYTES / 1024} KB` };
  const read = readYaml(source);
  if (!('problem' in read)) return { fields: read.fields, body };
  // Claude Code's own files write `argument-hint: [file] [focus]`, which is not YAML: like Claude Code, a
  // single-line value that does not parse is read again as the plain text it was meant to be.
  const again = readYaml(quoteUnparsableValues(source));
  if ('problem' in again) return { fields: {}, body, problem: read.problem };
  return { fields: again.fields, body };
}

type YamlRead = { fields: Record<string, string | string[]> } | { problem: string };

function readYaml(source: string): YamlRead {
  const doc = parseDocument(source, { prettyErrors: false, uniqueKeys: false });
  const error = doc.errors[0];
  if (error) return { problem: `${where(source, error.pos[0])}${firstLine(error.message)}` };
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    return { problem: `too many aliases (*name) in the frontmatter: ${firstLine((err as Error).message)}` };
  }
  if (js === null || js === undefined) return { fields: {} };
  if (typeof js !== 'object' || Array.isArray(js))
    return { problem: 'the frontmatter is not a list of "key: value" lines' };
  const fields: Record<string, string | string[]> = {};
  const nodes = new Map<string, unknown>();
  const contents = doc.contents as { items?: Array<{ key: unknown; value: unknown }> } | null;
  for (const pair of contents?.items ?? []) nodes.set(String(scalarOf(pair.key)), pair.value);
  for (const [key, value] of Object.entries(js as Record<string, unknown>)) {
    const node = nodes.get(key);
    // A one-line `[a, b]` stays the text it was (`argument-hint: [message]` is a hint; fieldList splits it).
    if (isSeq(node) && node.flow && node.range) fields[key.toLowerCase()] = source.slice(node.range[0], node.range[1]);
    else fields[key.toLowerCase()] = flat(value);
  }
  return { fields };
}

/** A YAML value as the callers know them: a string, or a list of strings; nested maps as JSON. */
function flat(value: unknown): string | string[] {
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : text(v)));
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) return JSON.stringify(value);
  return text(value);
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : String(v);
}

function scalarOf(key: unknown): unknown {
  return typeof key === 'object' && key !== null && 'value' in key ? (key as { value: unknown }).value : key;
}

/** Each top-level `key: value` line whose value alone is not YAML, with the value single-quoted. */
function quoteUnparsableValues(source: string): string {
  return source
    .split(/\r?\n/)
    .map((line) => {
      const m = /^([A-Za-z0-9_-]+)\s*:[ \t]+(\S.*?)\s*$/.exec(line);
      // A quoted, block, anchored or tagged value was meant as YAML: its error stands.
      if (!m || /^["'|>&*!]/.test(m[2])) return line;
      if (!parseDocument(`k: ${m[2]}`).errors.length) return line;
      return `${m[1]}: '${m[2].replace(/'/g, "''")}'`;
    })
    .join('\n');
}

/** The line in the whole file of an offset in the frontmatter, which starts on the file's second line. */
function where(source: string, offset: number): string {
  const lines = source.replace(/\r?\n$/, '').split('\n').length;
  const line = Math.min(source.slice(0, Math.max(0, offset)).split('\n').length, lines);
  return `line ${line + 1}: `;
}

function firstLine(s: string): string {
  return s.split('\n')[0]?.trim() ?? s;
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
