// definition, references, hover, symbols: the editor's language features (VS Code's definition,
// reference, hover and symbol providers, behind the LanguagePort), read-only, for every mode with
// tools. Positions are a line plus a symbol name (models are bad at columns); results are capped
// and workspace-relative, and files outside the read rules are named without their text.
import * as z from 'zod';
import type { CodeSymbol, LanguagePort } from '../language/types';
import { defineTool, errorResult, type ToolContext, type ToolResult } from './types';
import {
  formatLocations,
  mayShow,
  type ResolvedPosition,
  resolvePosition,
  uniqueLocations,
} from './util/code-position';
import { displayPath, resolvePath, ToolInputError } from './util/paths';
import { errorText } from '../util/error-text';

export const MAX_DEFINITIONS = 20;
export const MAX_REFERENCES = 100;
export const MAX_SYMBOLS = 200;
export const HOVER_CHARS = 4_000;

const NO_PORT = "Code intelligence is not available here (it needs the editor's language features). Use grep instead.";

export const positionInput = z.object({
  path: z.string().describe('The file: absolute, or relative to the workspace root.'),
  line: z.number().int().min(1).describe('1-based line where the symbol appears.'),
  symbol: z
    .string()
    .optional()
    .describe('The name on that line to ask about (preferred: it is found on the line for you).'),
  column: z.number().int().min(1).optional().describe('1-based column; only needed when the name is not given.'),
});
type PositionArgs = z.infer<typeof positionInput>;

/** Why a provider came back empty: no language support for the file at all, or none found. */
async function nothingFound(port: LanguagePort, pos: ResolvedPosition, what: string): Promise<string> {
  const support = await port.track(pos.abs).catch(() => undefined);
  const where = `${pos.shown}:${pos.at.line + 1}:${pos.at.character + 1}`;
  if (!support || support.languageId === 'plaintext')
    return (
      `No ${what} at ${where}: VS Code has no language support for ${pos.shown} ` +
      `(language "${support?.languageId ?? 'unknown'}"). Use grep instead.`
    );
  return `No ${what} found at ${where} (language "${support.languageId}").`;
}

async function atPosition(
  ctx: ToolContext,
  args: PositionArgs,
  run: (port: LanguagePort, pos: ResolvedPosition) => Promise<ToolResult>,
): Promise<ToolResult> {
  const port = ctx.ports.language;
  if (!port) return errorResult(NO_PORT);
  try {
    const pos = await resolvePosition(ctx, args);
    await port.track(pos.abs).catch(() => undefined);
    return await run(port, pos);
  } catch (e) {
    return errorResult(e instanceof ToolInputError ? e.message : `Error: ${errorText(e)}`);
  }
}

function ok(text: string, note?: string): ToolResult {
  const t = note ? `${note}\n${text}` : text;
  return { forModel: t, forUi: t, isError: false };
}

const positionFacts = {
  kind: 'read' as const,
  permission: { subject: 'path' as const, paths: (i: PositionArgs) => [i.path] },
  modes: ['agent', 'plan'] as const,
  input: positionInput,
  subject: (i: PositionArgs) => `${i.path}:${i.line}${i.symbol ? ` ${i.symbol}` : ''}`,
};

export const definitionTool = defineTool({
  ...positionFacts,
  name: 'definition',
  description:
    "Finds where a symbol is defined, through the editor's language server (go to definition). Give the file, the " +
    "line and the symbol name on that line. Returns path:line:col with the line's text.",
  async execute(i, ctx) {
    return atPosition(ctx, i, async (port, pos) => {
      const found = uniqueLocations(await port.definition(pos.abs, pos.at));
      if (!found.length) return ok(await nothingFound(port, pos, 'definition'), pos.note);
      return ok(await formatLocations(ctx, found, MAX_DEFINITIONS), pos.note);
    });
  },
});

export const referencesTool = defineTool({
  ...positionFacts,
  name: 'references',
  description:
    'Finds every reference to a symbol (its call sites, uses and declaration) across the workspace, through the ' +
    "editor's language server — exact where grep guesses. Give the file, the line and the symbol name on that line.",
  async execute(i, ctx) {
    return atPosition(ctx, i, async (port, pos) => {
      const found = uniqueLocations(await port.references(pos.abs, pos.at));
      if (!found.length) return ok(await nothingFound(port, pos, 'references'), pos.note);
      const files = new Set(found.map((l) => l.path)).size;
      const head = `${found.length} reference${found.length > 1 ? 's' : ''} in ${files} file${files > 1 ? 's' : ''}:`;
      return ok(`${head}\n${await formatLocations(ctx, found, MAX_REFERENCES)}`, pos.note);
    });
  },
});

export const hoverTool = defineTool({
  ...positionFacts,
  name: 'hover',
  description:
    "Shows what the editor shows on hover: a symbol's type, signature and documentation, through the language " +
    'server. Give the file, the line and the symbol name on that line.',
  async execute(i, ctx) {
    return atPosition(ctx, i, async (port, pos) => {
      const texts = (await port.hover(pos.abs, pos.at)).map((t) => t.trim()).filter(Boolean);
      if (!texts.length) return ok(await nothingFound(port, pos, 'hover information'), pos.note);
      let text = texts.join('\n\n---\n\n');
      if (text.length > HOVER_CHARS) text = `${text.slice(0, HOVER_CHARS)}\n… (cut at ${HOVER_CHARS} characters)`;
      return ok(text, pos.note);
    });
  },
});

const symbolsInput = z.object({
  path: z.string().optional().describe('A file: lists its symbols (classes, functions, …) as an outline.'),
  query: z.string().optional().describe('Without path: searches the whole workspace for symbols matching this name.'),
});

function symbolLine(ctx: ToolContext, s: CodeSymbol, withPath: boolean): string {
  const where = withPath
    ? `${displayPath(ctx.ports.workspace, s.location.path)}:${s.location.range.start.line + 1}`
    : `line ${s.location.range.start.line + 1}`;
  return `${s.kind} ${s.name}${s.container ? ` (in ${s.container})` : ''} — ${where}`;
}

export const symbolsTool = defineTool({
  name: 'symbols',
  kind: 'read',
  // A workspace query reads the whole workspace, like grep: judged as a folder read of the root.
  permission: { subject: 'path', folder: true, paths: (i) => [i.path] },
  modes: ['agent', 'plan'],
  input: symbolsInput,
  subject: (i) => i.path ?? `workspace: ${i.query ?? ''}`,
  description:
    "Lists symbols through the editor's language server: with `path`, the outline of that file (classes, " +
    "functions, methods with their lines); with `query` instead, the workspace's symbols whose names match it.",
  async execute(i, ctx) {
    const port = ctx.ports.language;
    if (!port) return errorResult(NO_PORT);
    try {
      if (i.path) {
        const abs = await resolvePath(ctx.ports.workspace, i.path);
        const shown = displayPath(ctx.ports.workspace, abs);
        const support = await port.track(abs);
        if (!support) return errorResult(`${shown} cannot be opened as a text file.`);
        const list = await port.documentSymbols(abs);
        if (!list.length)
          return ok(
            support.languageId === 'plaintext'
              ? `No symbols: VS Code has no language support for ${shown} (language "plaintext").`
              : `No symbols in ${shown} (language "${support.languageId}").`,
          );
        return ok(
          capped(
            list.map((s) => symbolLine(ctx, s, false)),
            MAX_SYMBOLS,
            `${shown}:`,
          ),
        );
      }
      const query = i.query?.trim();
      if (!query) return errorResult("Give a path (a file's outline) or a query (symbols across the workspace).");
      const shown: CodeSymbol[] = [];
      for (const s of await port.workspaceSymbols(query)) if (await mayShow(ctx, s.location.path)) shown.push(s);
      if (!shown.length) return ok(`No workspace symbols match "${query}".`);
      return ok(
        capped(
          shown.map((s) => symbolLine(ctx, s, true)),
          MAX_SYMBOLS,
          `Symbols matching "${query}":`,
        ),
      );
    } catch (e) {
      return errorResult(e instanceof ToolInputError ? e.message : `Error: ${errorText(e)}`);
    }
  },
});

function capped(lines: string[], max: number, head: string): string {
  const out = [head, ...lines.slice(0, max)];
  if (lines.length > max) out.push(`… and ${lines.length - max} more (capped at ${max}).`);
  return out.join('\n');
}
