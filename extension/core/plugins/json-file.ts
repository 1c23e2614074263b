// A plugin's and a marketplace's JSON files, read as Claude Code writes them, with positions: a file that
// is not valid JSON, or whose fields have the wrong shape, is reported as `file:line:column: …`.
import { readCheckedJsonc } from '../config/checked-jsonc';
import type * as z from 'zod';

export type JsonRead<T> = { ok: true; value: T } | { ok: false; problem: string };

/** `text` parsed and checked against `schema`; a problem names `file` with the line and column (the first one). */
export function readJsonFile<T>(text: string, file: string, schema: z.ZodType<T>): JsonRead<T> {
  const read = readCheckedJsonc(text, file, schema);
  return read.ok
    ? { ok: true, value: read.value }
    : { ok: false, problem: read.problems[0] ?? `${file}: is not valid` };
}
