// Positions and locations for the code intelligence tools: models give a line and a symbol name far
// more reliably than a column, so a name is found on its line (or the nearest line that has it);
// results come back as workspace-relative `path:line:col` with the line's text, capped.
import type { CodeLocation, TextPosition } from '../../language/types';
import type { ToolContext } from '../types';
import { decodeText } from './text';
import { displayPath, isInside, resolvePath, ToolInputError } from './paths';

/** How far from the given line a symbol name is looked for when the line does not have it. */
const NEARBY_LINES = 5;
const PREVIEW_CHARS = 160;

export interface PositionInput {
  path: string;
  line: number;
  column?: number;
  symbol?: string;
}

export interface ResolvedPosition {
  abs: string;
  shown: string;
  at: TextPosition;
  /** Said to the model when the position was not exactly where it pointed. */
  note?: string;
}

async function fileLines(ctx: ToolContext, abs: string): Promise<string[]> {
  const dirty = await ctx.ports.workspace.dirtyText(abs);
  if (dirty !== undefined) return dirty.split(/\r?\n/);
  const bytes = await ctx.ports.workspace.readFile(abs, { maxBytes: 8 * 1024 * 1024, signal: ctx.signal });
  const decoded = decodeText(bytes);
  if (decoded.kind === 'binary') throw new ToolInputError(`${abs} is not a text file (${decoded.reason}).`);
  return decoded.text.split(/\r?\n/);
}

function wordAt(text: string, symbol: string): number[] {
  const found: number[] = [];
  const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_$]/u.test(c);
  for (let i = text.indexOf(symbol); i >= 0; i = text.indexOf(symbol, i + 1)) {
    const whole = !isWord(symbol[0]) || (!isWord(text[i - 1]) && !isWord(text[i + symbol.length]));
    if (whole) found.push(i);
  }
  return found;
}

/**
 * The 0-based position a tool call points at: the symbol on (or near) its line, else the column, else
 * the line's first word.
 */
export async function resolvePosition(ctx: ToolContext, input: PositionInput): Promise<ResolvedPosition> {
  const abs = await resolvePath(ctx.ports.workspace, input.path);
  const shown = displayPath(ctx.ports.workspace, abs);
  let lines: string[];
  try {
    lines = await fileLines(ctx, abs);
  } catch (e) {
    if (e instanceof ToolInputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new ToolInputError(code === 'ENOENT' ? `${shown} does not exist.` : `Cannot read ${shown}: ${String(e)}`);
  }
  const line = input.line - 1;
  if (line < 0 || line >= lines.length)
    throw new ToolInputError(`${shown} has ${lines.length} lines; line ${input.line} is not one of them.`);
  const symbol = input.symbol?.trim();
  if (symbol) {
    const here = wordAt(lines[line], symbol);
    if (here.length) {
      const want = (input.column ?? 1) - 1;
      const best = here.reduce((a, b) => (Math.abs(b - want) < Math.abs(a - want) ? b : a));
      return { abs, shown, at: { line, character: best } };
    }
    for (let d = 1; d <= NEARBY_LINES; d++) {
      for (const l of [line - d, line + d]) {
        const hit = l >= 0 && l < lines.length ? wordAt(lines[l], symbol)[0] : undefined;
        if (hit !== undefined)
          return {
            abs,
            shown,
            at: { line: l, character: hit },
            note: `(\`${symbol}\` is on line ${l + 1}, not ${input.line}.)`,
          };
      }
    }
    throw new ToolInputError(
      `\`${symbol}\` is not on line ${input.line} of ${shown} (nor within ${NEARBY_LINES} lines of it). ` +
        'Read the file and give the line where the name appears.',
    );
  }
  if (input.column !== undefined) {
    const character = Math.min(Math.max(input.column - 1, 0), lines[line].length);
    return { abs, shown, at: { line, character } };
  }
  const first = lines[line].search(/[\p{L}\p{N}_$]/u);
  return {
    abs,
    shown,
    at: { line, character: Math.max(first, 0) },
    note: '(No symbol given: used the first word of the line.)',
  };
}

/** Whether a location's file text may be shown: read_file's read rules, else the workspace folders only. */
export async function mayShow(ctx: ToolContext, abs: string): Promise<boolean> {
  if (ctx.mayRead) return ctx.mayRead(abs).catch(() => false);
  return ctx.ports.workspace.roots().some((r) => isInside(abs, r));
}

/**
 * `path:line:col  text of the line` for each location, in order, at most `max` (then a count of the
 * rest). Files outside the read rules are named without their text.
 */
export async function formatLocations(ctx: ToolContext, locations: CodeLocation[], max: number): Promise<string> {
  const shownLocations = locations.slice(0, max);
  const texts = new Map<string, string[] | undefined>();
  for (const loc of shownLocations) {
    if (texts.has(loc.path)) continue;
    texts.set(
      loc.path,
      (await mayShow(ctx, loc.path)) ? await fileLines(ctx, loc.path).catch(() => undefined) : undefined,
    );
  }
  const out = shownLocations.map((loc) => {
    const { line, character } = loc.range.start;
    const where = `${displayPath(ctx.ports.workspace, loc.path)}:${line + 1}:${character + 1}`;
    let text = texts.get(loc.path)?.[loc.range.start.line]?.trim();
    if (text && text.length > PREVIEW_CHARS) text = `${text.slice(0, PREVIEW_CHARS)}…`;
    return text ? `${where}  ${text}` : where;
  });
  if (locations.length > max) out.push(`… and ${locations.length - max} more (capped at ${max}).`);
  return out.join('\n');
}

/** Sorted and without duplicates (providers may return the same place twice). */
export function uniqueLocations(locations: CodeLocation[]): CodeLocation[] {
  const seen = new Set<string>();
  const out: CodeLocation[] = [];
  for (const l of locations) {
    const k = `${l.path}\0${l.range.start.line}\0${l.range.start.character}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(l);
  }
  return out.sort(
    (a, b) =>
      a.path.localeCompare(b.path) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character,
  );
}
