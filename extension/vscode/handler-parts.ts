// What every chat's handler table shares (handlers.ts): the commands, MCP and hooks decisions, `@`
// references, command grants and prompt history. Each chat adds its own controller, queue and post.
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { PromptHistory } from '../core/extensions/prompt-history';
import type { ProjectContext } from '../core/extensions/project-context';
import { referencesFor } from '../core/extensions/references/service';
import type { DiffReviews } from './diff-review';
import type { HandlerHost } from './handlers';
import type { RuntimeHooks } from './hooks-host';
import type { RuntimeMcp } from './mcp-runtime';
import type { createPermissionHost } from './permission-host';
import { createMemoryHost } from './memory-host';
import { PlanDocuments } from './plan-documents';
import { commandGrantHost, confirmReferenceRead, EditorReferences } from './reference-editor';
import type { Runtime } from './runtime-api';
import type { ToolsHost } from './tools-host';

/** Where the workspace's prompt history is kept (workspace state: per workspace, across windows). */
const PROMPT_HISTORY_KEY = 'sextant.promptHistory';

export function sharedHandlerParts(o: {
  context: vscode.ExtensionContext;
  channel: vscode.LogOutputChannel;
  runtime: Runtime;
  diffReviews: DiffReviews;
  mcp: RuntimeMcp['host'];
  hooks: RuntimeHooks;
  project: ProjectContext;
  tools: ToolsHost;
  permissions: ReturnType<typeof createPermissionHost>;
}): Omit<HandlerHost, 'controller' | 'queue' | 'post'> {
  const { context, runtime, mcp, tools } = o;
  const editor = new EditorReferences();
  context.subscriptions.push(editor);
  return {
    log: o.channel,
    setApiKey: runtime.setApiKey,
    pickModel: runtime.pickModel,
    exportSession: runtime.exportSession,
    exportReport: runtime.exportReport,
    openInEditor: (id) => runtime.openInEditor(id),
    planDocuments: new PlanDocuments(),
    diffReviews: o.diffReviews,
    mcpDecide: async (server, decision, card) => void (await mcp.manager.decide(server, decision, card)),
    hookDecide: (hash, decision) => o.hooks.decide(hash, decision),
    expandMessage: (text) => mcp.expandMessage(text),
    project: o.project,
    memory: createMemoryHost({
      workspace: tools.ports.workspace,
      home: () => o.project.files.home(),
      redact: (text) => tools.ports.redact?.(text) ?? text,
    }),
    references: referencesFor({
      workspace: tools.ports.workspace,
      ripgrepPath: () => tools.ports.search.ripgrepPath(),
      permissions: o.permissions.gate,
      editor,
      fetchPage: async (url, signal) => {
        const { page } = await tools.pageFetcher.fetch(url, signal ? { signal } : {});
        return { url: page.finalUrl, title: page.title, markdown: page.markdown };
      },
      readMcpResource: (server, uri) => mcp.readResourceText(server, uri),
      confirmRead: confirmReferenceRead,
    }),
    grants: commandGrantHost(context.workspaceState),
    newRequestId: randomUUID,
    prompts: new PromptHistory({
      read: () => context.workspaceState.get(PROMPT_HISTORY_KEY),
      write: (prompts) => void context.workspaceState.update(PROMPT_HISTORY_KEY, prompts),
    }),
  };
}
