// A language-model tool of another VS Code extension as a Sextant tool. Nothing is known about what it
// does — `vscode.lm.tools` carries no read-only hint — so it is judged as a tool that may change things:
// it asks before every call unless a rule allows it (`lm__<tool>`, `lm__*`), deny rules and the
// administrator's managed rules apply as to any tool, and it is offered in Agent mode only.
import * as z from 'zod';
import { factsFromAnnotations } from '../permissions/tool-facts';
import { defineTool, errorResult, type AnyTool } from '../tools/types';
import type { LanguageModelToolsPort, LmToolInfo } from './port';
import { lmToolName } from './tool-name';

const MAX_DESCRIPTION = 2_000;
const SUBJECT_CHARS = 200;
/** A result longer than this is cut (the model gets the start and how much was left out). */
const MAX_RESULT = 100_000;

function providerSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema ?? {};
  if (rest.type !== 'object') return { ...rest, type: 'object', properties: rest.properties ?? {} };
  return rest;
}

export function lmTool(info: LmToolInfo, port: LanguageModelToolsPort): AnyTool {
  const name = lmToolName(info.name);
  const facts = factsFromAnnotations(name, {});
  const description = info.description.slice(0, MAX_DESCRIPTION) || `The ${info.name} tool`;
  return defineTool({
    name,
    description: `${description} (a VS Code language-model tool of another extension: ${info.name})`,
    input: z.record(z.string(), z.unknown()),
    jsonSchema: providerSchema(info.inputSchema),
    kind: facts.kind,
    permission: facts.permission,
    modes: ['agent'],
    subject: (input) => {
      const text = JSON.stringify(input);
      return text.length > SUBJECT_CHARS ? `${text.slice(0, SUBJECT_CHARS - 1)}…` : text;
    },
    describeForApproval: async (input) =>
      [
        `VS Code language-model tool ${info.name}, registered by another extension`,
        ...(info.tags.length ? [`Tags: ${info.tags.join(', ')}`] : []),
        'Arguments:',
        JSON.stringify(input, null, 2),
      ].join('\n'),
    execute: async (input, ctx) => {
      try {
        const text = await port.invoke(info.name, input, ctx.signal);
        const cut =
          text.length > MAX_RESULT
            ? `${text.slice(0, MAX_RESULT)}\n[… ${text.length - MAX_RESULT} characters cut]`
            : text;
        return { forModel: cut || '(no output)', forUi: cut || '(no output)', isError: false };
      } catch (err) {
        if (ctx.signal.aborted) return errorResult(`${info.name} was stopped by the user.`);
        return errorResult(`The tool ${info.name} failed: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
  });
}
