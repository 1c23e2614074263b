// problems: the errors and warnings the editor knows now (VS Code's Problems panel), of one file or
// of the whole workspace — what the language servers and linters report, without running a build.
import * as z from 'zod';
import { awaitSettled, formatDiagnostics, sortDiagnostics } from '../language/diagnostics';
import type { FileDiagnostic } from '../language/types';
import { defineTool, errorResult } from './types';
import { mayShow } from './util/code-position';
import { displayPath, resolvePath, ToolInputError } from './util/paths';
import { errorText } from '../util/error-text';

/** Problems listed; the rest are counted. */
export const MAX_PROBLEMS = 100;

const input = z.object({
  path: z
    .string()
    .optional()
    .describe('A file to check (absolute or workspace-relative); omit for the whole workspace.'),
  include_info: z.boolean().optional().describe('Also list information and hints (default: errors and warnings only).'),
});

export const problemsTool = defineTool({
  name: 'problems',
  kind: 'read',
  permission: { subject: 'path', folder: true, paths: (i) => [i.path] },
  modes: ['agent', 'plan'],
  input,
  subject: (i) => i.path ?? 'workspace',
  description:
    "Lists the current errors and warnings that the editor's language servers and linters report (the Problems " +
    'panel), for one file or the whole workspace, as path:line:col severity [source] message. Only files the ' +
    'language servers have looked at are included; pass a path to have that file checked.',
  async execute(i, ctx) {
    const port = ctx.ports.language;
    if (!port) return errorResult('Diagnostics are not available here (they need the editor). Run the build instead.');
    try {
      let list: FileDiagnostic[];
      let scope = 'the workspace';
      if (i.path) {
        const abs = await resolvePath(ctx.ports.workspace, i.path);
        scope = displayPath(ctx.ports.workspace, abs);
        const support = await port.track(abs);
        if (!support) return errorResult(`${scope} cannot be opened as a text file.`);
        if (!support.diagnostics)
          return {
            forModel: `No diagnostics source for ${scope} (language "${support.languageId}").`,
            forUi: `No diagnostics source for ${scope}`,
            isError: false,
          };
        // A file opened just now has no diagnostics yet: give its server the usual settling time.
        if (support.opened) await awaitSettled(port, [abs], port.settleLimits(), ctx.signal);
        list = port.diagnostics([abs]);
      } else {
        list = [];
        for (const d of port.diagnostics()) if (await mayShow(ctx, d.path)) list.push(d);
      }
      const wanted = sortDiagnostics(
        list.filter((d) => i.include_info || d.severity === 'error' || d.severity === 'warning'),
      );
      if (!wanted.length) {
        const t = `No ${i.include_info ? 'problems' : 'errors or warnings'} in ${scope}.`;
        return { forModel: t, forUi: t, isError: false };
      }
      const errors = wanted.filter((d) => d.severity === 'error').length;
      const count = `${wanted.length} problem${wanted.length > 1 ? 's' : ''}`;
      const head = `${count} in ${scope} (${errors} error${errors === 1 ? '' : 's'}):`;
      const text = `${head}\n${formatDiagnostics(wanted, (p) => displayPath(ctx.ports.workspace, p), MAX_PROBLEMS)}`;
      return { forModel: text, forUi: text, isError: false };
    } catch (e) {
      return errorResult(e instanceof ToolInputError ? e.message : `Error: ${errorText(e)}`);
    }
  },
});
