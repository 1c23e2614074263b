// What every chat's handler table shares (handlers.ts): the commands, MCP and hooks decisions, `@`
// references, command grants and prompt history. Each chat adds its own controller, queue and post.
import { randomUUID } from 'node:crypto';
import type * as vscode from 'vscode';
import { PromptHistory } from '../core/extensions/prompt-history';
import type { ProjectContext } from '../core/extensions/project-context';
import { referencesFor } from '../core/extensions/references/service';
import type { PermissionGate } from '../core/agent/permission-gate';
import type { WorkspacePort } from '../core/ports';
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

export type SharedHandlerParts = Omit<HandlerHost, 'controller' | 'queue' | 'post'> & {
  /** `@` references over other files (a worktree session's): worktree-slots.ts. */
  referencesOver(workspace: WorkspacePort, permissions: PermissionGate): NonNullable<HandlerHost['references']>;
};

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
  reviewAnswered?: (answer: string, sessionId?: string) => void;
  /** The user is typing in a chat whose model is this (first-request-warm-up.ts). */
  composing?: (model: string) => void;
}): SharedHandlerParts {
  const { context, runtime, mcp, tools } = o;
  const editor = new EditorReferences();
  context.subscriptions.push(editor);
  const referencesOver = (workspace: WorkspacePort, permissions: PermissionGate) =>
    referencesFor({
      workspace,
      ripgrepPath: () => tools.ports.search.ripgrepPath(),
      permissions,
      editor,
      fetchPage: async (url, signal) => {
        const { page } = await tools.pageFetcher.fetch(url, signal ? { signal } : {});
        return { url: page.finalUrl, title: page.title, markdown: page.markdown };
      },
      readMcpResource: (server, uri) => mcp.readResourceText(server, uri),
      confirmRead: confirmReferenceRead,
    });
  return {
    log: o.channel,
    ...(o.reviewAnswered ? { reviewAnswered: o.reviewAnswered } : {}),
    ...(o.composing ? { composing: o.composing } : {}),
    setApiKey: runtime.setApiKey,
    setPermissionMode: (mode) => o.permissions.setDefaultMode(mode),
    pickModel: runtime.pickModel,
    exportSession: runtime.exportSession,
    exportReport: runtime.exportReport,
    openSourceQuote: (m) => runtime.openSourceQuote(m),
    openInEditor: (id) => runtime.openInEditor(id),
    createPullRequest: (sessionId) => runtime.git.createPullRequest(sessionId ? { sessionId } : undefined),
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
    references: referencesOver(tools.ports.workspace, o.permissions.gate),
    referencesOver,
    grants: commandGrantHost(context.workspaceState),
    newRequestId: randomUUID,
    prompts: new PromptHistory({
      read: () => context.workspaceState.get(PROMPT_HISTORY_KEY),
      write: (prompts) => void context.workspaceState.update(PROMPT_HISTORY_KEY, prompts),
    }),
  };
}
