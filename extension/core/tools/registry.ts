// The tool registry: JSON Schema specs for the providers, argument parsing and validation with
// messages that tell the model what to fix, and the tool sets each mode is built with.
import * as z from 'zod';
import type { Mode } from '../../protocol';
import type { ToolSpec } from '../providers/types';
import { errorResult, type AnyTool, type PreparedCall, type ToolContext, type ToolResult } from './types';
import { readFileTool } from './read-file';
import { writeFileTool } from './write-file';
import { editFileTool } from './edit-file';
import { multiEditTool } from './multi-edit';
import { globTool } from './glob';
import { grepTool } from './grep';
import { lsTool } from './ls';
import { bashTool } from './bash';
import { bashOutputTool } from './bash-output';
import { killShellTool } from './kill-shell';
import { todoWriteTool } from './todo-write';
import { askUserTool } from './ask-user';
import { notebookEditTool } from './notebook-edit';
import { submitPlanTool } from './submit-plan';
import { webSearchTool } from './web-search';
import { webFetchDeclaration } from './web-fetch';
import { memorySearchDeclaration } from './memory-search';
import { taskDeclaration } from './task';
import { problemsTool } from './problems';
import { definitionTool, hoverTool, referencesTool, symbolsTool } from './code-intel';
import { renameTool } from './rename';
import { gitCommitTool } from './git-commit';
import { browserToolFacts } from './browser/tools';
import { factsProblem, type ToolFacts } from '../permissions/tool-facts';
import { ToolInputError } from './util/paths';
import { redactingStream, redactResult, toolRedactor } from './util/redaction';
import type { ToolPorts } from '../ports';

export { createToolSessionState, disposeToolSession } from './util/session';

export interface ToolCallInput {
  id: string;
  name: string;
  argumentsJson: string;
}

export function builtinTools(): AnyTool[] {
  return [
    readFileTool,
    writeFileTool,
    editFileTool,
    multiEditTool,
    globTool,
    grepTool,
    lsTool,
    bashTool,
    bashOutputTool,
    killShellTool,
    todoWriteTool,
    askUserTool,
    notebookEditTool,
    webSearchTool,
    problemsTool,
    definitionTool,
    referencesTool,
    hoverTool,
    symbolsTool,
    renameTool,
    gitCommitTool,
  ];
}

/**
 * The permission facts of every tool Sextant declares, those built by factories (web_fetch,
 * memory_search) included: what the permission policy is created with.
 */
export function declaredToolFacts(): ToolFacts[] {
  return [
    ...builtinTools(),
    submitPlanTool,
    webFetchDeclaration,
    memorySearchDeclaration,
    taskDeclaration,
    ...browserToolFacts(),
  ];
}

/**
 * The tools a mode is built with — each tool names its modes — so a forbidden call cannot even be
 * expressed. Untrusted (Restricted Mode) workspaces get none: a read could still leak secrets into a
 * prompt. No tool names Chat, and none Research: that mode runs its own loop (core/research/loop) on
 * the search and fetch services, so the loop, not the model, owns bounds, parallelism and citations.
 * Plan offers read-only exploration, then submit_plan (which changes nothing) ends the turn.
 */
export function toolsForMode(mode: Mode, opts: { trusted: boolean }): AnyTool[] {
  if (!opts.trusted) return [];
  return [...builtinTools(), submitPlanTool].filter((t) => t.modes.includes(mode));
}

/** JSON Schema for a tool's input, accepted by both OpenAI and Anthropic. */
export function inputJsonSchema(tool: AnyTool): Record<string, unknown> {
  if (tool.jsonSchema) return tool.jsonSchema;
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  if (schema.type !== 'object') return { type: 'object', properties: {}, ...schema };
  return schema;
}

export type ParsedInput = { ok: true; input: unknown } | { ok: false; error: string };

function describeType(s: Record<string, unknown>): string {
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.type === 'array') {
    const items = s.items && typeof s.items === 'object' ? describeType(s.items as Record<string, unknown>) : 'items';
    return `array of ${items}`;
  }
  if (s.type === 'object') return 'object';
  if (Array.isArray(s.anyOf)) return s.anyOf.map((x) => describeType(x as Record<string, unknown>)).join(' | ');
  return typeof s.type === 'string' ? s.type : 'value';
}

/** A one-line summary of the expected arguments, e.g. {file_path: string, offset?: integer}. */
export function argumentSummary(tool: AnyTool): string {
  const schema = inputJsonSchema(tool);
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const parts = Object.entries(props).map(
    ([k, v]) => `${JSON.stringify(k)}${required.has(k) ? '' : '?'}: ${describeType(v)}`,
  );
  return `{${parts.join(', ')}}`;
}

function issuePath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '(the arguments object)';
  return path.map((p, k) => (typeof p === 'number' ? `[${p}]` : k === 0 ? String(p) : `.${String(p)}`)).join('');
}

/** Parses and validates a call's arguments; the error text is written for the model. */
export function parseToolInput(tool: AnyTool, argumentsJson: string): ParsedInput {
  let raw: unknown;
  const text = argumentsJson.trim();
  try {
    raw = text === '' ? {} : JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      error:
        `The arguments for ${tool.name} are not valid JSON (${(e as Error).message}). Send one JSON object ` +
        `matching ${argumentSummary(tool)}.`,
    };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      ok: false,
      error:
        `The arguments for ${tool.name} must be a JSON object matching ${argumentSummary(tool)}, not ` +
        `${Array.isArray(raw) ? 'an array' : typeof raw}.`,
    };
  }
  const r = tool.input.safeParse(raw);
  if (r.success) return { ok: true, input: r.data };
  const known = new Set(Object.keys((inputJsonSchema(tool).properties ?? {}) as object));
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  const lines = r.error.issues.map((iss: z.core.$ZodIssue) => {
    const missing = iss.code === 'invalid_type' && iss.path.length > 0 && getAt(raw, iss.path) === undefined;
    return `- ${issuePath(iss.path)}: ${missing ? 'required but missing' : iss.message}`;
  });
  const extra = unknown.length
    ? `\n(Unknown argument${unknown.length > 1 ? 's' : ''} ignored: ${unknown.join(', ')}.)`
    : '';
  return {
    ok: false,
    error:
      `Invalid arguments for ${tool.name}:\n${lines.join('\n')}${extra}\nFix them and call ${tool.name} again. ` +
      `Expected: ${argumentSummary(tool)}`,
  };
}

function getAt(obj: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

export interface ToolRegistry {
  specs(): ToolSpec[];
  /** Finds the call's tool and parses and validates its arguments (once per call). */
  prepare(call: ToolCallInput): PreparedCall;
  /** Runs a prepared call. Never throws: every failure, an invalid call included, is an error result. */
  execute(call: PreparedCall, ctx: ToolContext): Promise<ToolResult>;
}

/**
 * The registry of one tool set. A tool without complete permission facts (one built without
 * defineTool, or an MCP tool nobody declared) is refused: the policy could not judge its calls.
 */
export function createToolRegistry(tools: AnyTool[], opts: { hidden?: ReadonlySet<string> } = {}): ToolRegistry {
  for (const t of tools) {
    const problem = factsProblem(t);
    if (problem) throw new Error(`Tool registry: ${problem}`);
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  let specs: ToolSpec[] | undefined;
  return {
    specs() {
      // `hidden` tools (MCP tools behind tool_search) are callable but not sent: see core/mcp/tool-search.ts.
      specs ??= tools
        .filter((t) => !opts.hidden?.has(t.name))
        .map((t) => ({ name: t.name, description: t.description, inputSchema: inputJsonSchema(t) }));
      return specs;
    },
    prepare(call) {
      const tool = byName.get(call.name);
      if (!tool) {
        const known = [...byName.keys()].filter((n) => !opts.hidden?.has(n)).join(', ') || 'none';
        return { ok: false, tool, error: `There is no tool named "${call.name}" here. Available tools: ${known}.` };
      }
      const parsed = parseToolInput(tool, call.argumentsJson);
      return parsed.ok ? { ok: true, tool, input: parsed.input } : { ok: false, tool, error: parsed.error };
    },
    async execute(call, ctx) {
      // Every result and every progress chunk leaves here redacted: this is the one place all tool
      // output passes on its way to the model, the chat, the store and the logs.
      const redact = toolRedactor(ctx.ports);
      if (!call.ok) return redactResult(errorResult(call.error), redact);
      const { tool } = call;
      const progress = redactingStream(redact, (text) => ctx.progress(text));
      const inner: ToolContext = { ...ctx, progress: (output) => progress.write(output) };
      try {
        return redactResult(await tool.execute(call.input, inner), redact);
      } catch (e) {
        if (e instanceof ToolInputError) return redactResult(errorResult(e.message), redact);
        if (ctx.signal.aborted) return errorResult(`${tool.name} was aborted.`);
        const msg = e instanceof Error ? e.message : String(e);
        ctx.ports.log.error(redact(`tool ${tool.name} threw: ${e instanceof Error && e.stack ? e.stack : msg}`));
        return redactResult(errorResult(`${tool.name} failed: ${msg}`), redact);
      } finally {
        progress.flush();
      }
    },
  };
}

/**
 * The subject a card or an approval shows for a call: `tool.subject(input)` without secrets, '' when
 * the call is invalid or `subject` throws. For display only: permission rules and "Always" approvals
 * match the subject as the model wrote it.
 */
export function displaySubject(prepared: PreparedCall, ports: Pick<ToolPorts, 'redact'>): string {
  if (!prepared.ok) return '';
  try {
    return toolRedactor(ports)(prepared.tool.subject(prepared.input));
  } catch {
    return '';
  }
}

/** The detail an approval card shows: `describeForApproval` (else `fallback`), without secrets. */
export async function approvalDetail(
  prepared: Extract<PreparedCall, { ok: true }>,
  ctx: ToolContext,
  fallback: string,
): Promise<string> {
  const detail = (await prepared.tool.describeForApproval?.(prepared.input, ctx).catch(() => undefined)) ?? fallback;
  return toolRedactor(ctx.ports)(detail);
}
