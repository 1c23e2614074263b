// VS Code's language-model tool registry behind core's LanguageModelToolsPort: `vscode.lm.tools` (the
// tools other extensions register with `vscode.lm.registerTool`) and `vscode.lm.invokeTool`, called
// outside a chat request (`toolInvocationToken: undefined`, as the API asks of callers that are not a
// chat participant). Result parts become text: text parts as written, prompt-tsx parts as JSON, other
// parts (data, images) named by their MIME type. Sextant contributes no tools of its own to `vscode.lm`
// (see extension/core/lm-tools/README.md).
import * as vscode from 'vscode';
import { LanguageModelTools } from '../core/lm-tools/source';
import type { LanguageModelToolsPort } from '../core/lm-tools/port';
import type { ToolsHost } from './tools-host';
import { vscodeSettings } from './settings';

function partText(part: unknown): string {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value);
  const p = part as { value?: unknown; mimeType?: unknown } | undefined;
  if (typeof p?.value === 'string') return p.value;
  if (typeof p?.mimeType === 'string') return `[${p.mimeType} content left out]`;
  return '';
}

export function lmToolsPort(): LanguageModelToolsPort {
  return {
    list: () =>
      (vscode.lm?.tools ?? []).map((t) => ({
        name: t.name,
        description: t.description,
        ...(t.inputSchema ? { inputSchema: t.inputSchema as Record<string, unknown> } : {}),
        tags: t.tags,
      })),
    invoke: async (name, input, signal) => {
      const cancel = new vscode.CancellationTokenSource();
      const onAbort = () => cancel.cancel();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, cancel.token);
        return result.content.map(partText).filter(Boolean).join('\n');
      } finally {
        signal.removeEventListener('abort', onAbort);
        cancel.dispose();
      }
    },
  };
}

/** Offers other extensions' language-model tools to the agent (`sextant.languageModelTools.enabled`). */
export function useLanguageModelTools(tools: ToolsHost): void {
  tools.useEditorTools(
    new LanguageModelTools(lmToolsPort(), () => vscodeSettings.user('languageModelTools.enabled') !== false),
  );
}
