// A plugin's and a marketplace's JSON files, read as Claude Code writes them, with positions: a file that
// is not valid JSON, or whose fields have the wrong shape, is reported as `file:line:column: …`.
import { lineColumn, offsetNear, parseJsonc, pathText } from '../config/jsonc';
import type * as z from 'zod';

export type JsonRead<T> = { ok: true; value: T } | { ok: false; problem: string };

/** `text` parsed and checked against `schema`; a problem names `file` with the line and column. */
export function readJsonFile<T>(text: string, file: string, schema: z.ZodType<T>): JsonRead<T> {
  const at = (offset: number) => {
    const { line, column } = lineColumn(text, offset);
    return `${file}:${line}:${column}`;
  };
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { ok: false, problem: `${at(parsed.offset)}: not valid JSON (${parsed.message})` };
  const checked = schema.safeParse(parsed.value);
  if (checked.success) return { ok: true, value: checked.data };
  const issue = checked.error.issues[0];
  const name = issue?.path.length ? `"${pathText(issue.path)}" ` : '';
  const offset = offsetNear(parsed.offsetOf, issue?.path ?? []);
  return { ok: false, problem: `${at(offset)}: ${name}${issue?.message ?? 'is not valid'}` };
}
