// Nested rules (Claude Code's and Codex's behaviour): an AGENTS.md or CLAUDE.md in a subfolder applies
// to the files below it, and reaches the model the first time a tool touches one of them — appended to
// that tool's result, never to the system prompt, so the cached prefix stays as it was.
import * as path from 'node:path';
import type { PreparedCall, ToolContext, ToolResult, ToolSessionState } from '../tools/types';
import type { ProjectFiles } from './project-files';
import { toolRedactor } from '../tools/util/redaction';
import { nestedRulesFor } from './rules';

/** Input fields of the built-in tools that name the file or folder they touch. */
const PATH_FIELDS = ['file_path', 'path', 'notebook_path'] as const;

interface Executes {
  execute(call: PreparedCall, ctx: ToolContext): Promise<ToolResult>;
}

/** Per chat: the subfolder rules already given (a chat's tool session lives as long as the chat). */
const givenBySession = new WeakMap<ToolSessionState, Set<string>>();

export function withNestedRules<T extends Executes>(tools: T, files: ProjectFiles): T {
  const wrapped = Object.create(tools) as T;
  wrapped.execute = async (call, ctx) => {
    const result = await tools.execute(call, ctx);
    if (!call.ok || result.isError) return result;
    const target = touchedPath(call.input, files.roots()[0]);
    if (!target) return result;
    const given = givenBySession.get(ctx.session) ?? new Set<string>();
    givenBySession.set(ctx.session, given);
    const rules = await nestedRulesFor(files, target, given).catch(() => []);
    if (!rules.length) return result;
    const note = rules
      .map((r) => `\n\n<rules file="${r.label}" applies-to="${path.dirname(r.label)}/">\n${r.text.trim()}\n</rules>`)
      .join('');
    // Redacted like the tool result it joins (the reader already refuses links to keys and /proc).
    const text = toolRedactor(ctx.ports)(
      `\n\n[Rules for this folder, from the project — follow them for files under it:]${note}`,
    );
    const forModel =
      typeof result.forModel === 'string'
        ? result.forModel + text
        : [...result.forModel, { type: 'text' as const, text }];
    return { ...result, forModel };
  };
  return wrapped;
}

function touchedPath(input: unknown, root: string | undefined): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  for (const key of PATH_FIELDS) {
    const v = (input as Record<string, unknown>)[key];
    if (typeof v !== 'string' || !v) continue;
    if (path.isAbsolute(v)) return v;
    return root ? path.join(root, v) : undefined;
  }
  return undefined;
}
