// The diagnostics step around a file writer's execution: the files it will touch get a baseline
// before it runs, and a successful result gets the new errors and warnings appended after it.
import type { AnyTool, ToolContext, ToolResult } from '../tools/types';
import { displayPath, resolvePath } from '../tools/util/paths';
import { afterEdit, beforeEdit } from './diagnostics';

/** The files a writer with a diff review (write_file, edit_file, multi_edit, notebook_edit) will write. */
async function writtenPaths(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<string[]> {
  if (tool.kind !== 'write' || !tool.proposeChange || tool.permission.subject !== 'path') return [];
  const given = tool.permission.paths?.(input) ?? [];
  const out: string[] = [];
  for (const g of given) if (typeof g === 'string' && g.trim()) out.push(await resolvePath(ctx.ports.workspace, g));
  return out;
}

/** Runs `run` (the writer), and appends the diagnostics its change introduced to a successful result. */
export async function withDiagnostics(
  tool: AnyTool,
  input: unknown,
  ctx: ToolContext,
  run: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const port = ctx.ports.language;
  if (!port) return run();
  const paths = await writtenPaths(tool, input, ctx).catch(() => []);
  return runWatched(ctx, paths, run);
}

/** The same for a tool that knows its files itself (rename). */
export async function runWatched(
  ctx: ToolContext,
  paths: string[],
  run: () => Promise<ToolResult>,
): Promise<ToolResult> {
  const port = ctx.ports.language;
  if (!port || !paths.length) return run();
  const limits = port.settleLimits();
  const baseline = await beforeEdit(port, paths, limits, ctx.signal).catch(() => undefined);
  const result = await run();
  if (result.isError || !baseline) return result;
  const note = await afterEdit(port, baseline, limits, ctx.signal, (p) => displayPath(ctx.ports.workspace, p)).catch(
    () => undefined,
  );
  if (!note) return result;
  const forModel =
    typeof result.forModel === 'string'
      ? `${result.forModel}\n\n${note}`
      : [...result.forModel, { type: 'text' as const, text: note }];
  return { ...result, forModel, forUi: `${result.forUi}\n\n${note}` };
}
