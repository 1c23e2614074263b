// A JSON-with-comments file parsed (jsonc.ts) and checked against a zod schema, every problem named
// `file:line:column` — the one reader behind `.mcp.json`, `.vscode/mcp.json` and a plugin's or a
// marketplace's JSON. On success `where(path)` names the position of any value in it, so what the file's
// entries are checked for later (one server, one input) is reported at its own line too.
import type * as z from 'zod';
import { lineColumn, offsetNear, parseJsonc, pathText } from './jsonc';

export type CheckedJsonc<T> =
  | { ok: true; value: T; where(path: ReadonlyArray<PropertyKey>): string }
  | { ok: false; kind: 'json' | 'shape'; problems: string[] };

export function readCheckedJsonc<T>(
  text: string,
  file: string,
  schema: z.ZodType<T>,
  message: (issue: z.core.$ZodIssue) => string = (issue) => issue.message,
): CheckedJsonc<T> {
  const at = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${file}:${line}:${column}`;
  };
  const parsed = parseJsonc(text);
  if (!parsed.ok)
    return { ok: false, kind: 'json', problems: [`${at(parsed.offset)}: not valid JSON (${parsed.message})`] };
  const checked = schema.safeParse(parsed.value);
  if (!checked.success) {
    const problems = checked.error.issues.map((issue) => {
      const name = issue.path.length ? `"${pathText(issue.path)}" ` : '';
      return `${at(offsetNear(parsed.offsetOf, issue.path))}: ${name}${message(issue)}`;
    });
    return { ok: false, kind: 'shape', problems };
  }
  return { ok: true, value: checked.data, where: (path) => at(offsetNear(parsed.offsetOf, path)) };
}
