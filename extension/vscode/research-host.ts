// Research mode's host in VS Code: the engine's research host (extension/engine/research.ts) reading
// `sextant.research.*` from VS Code's settings, and each chat's over the window's tools and keys.
import * as vscode from 'vscode';
import type { ResearchHost } from '../core/research/host';
import { createResearchHost as createEngineResearch, type ResearchHostDeps } from '../engine/research';
import type { Logger } from '../core/ports';
import type { PermissionHost } from './permission-host';
import type { ProvidersHost } from './providers-host';
import { readSettings } from './settings';
import type { ToolsHost } from './tools-host';
import type { McpManager } from '../core/mcp/manager';
import { mcpResearchPort } from '../core/mcp/research-port';

export function createResearchHost(deps: Omit<ResearchHostDeps, 'setting'>): ResearchHost {
  return createEngineResearch({
    ...deps,
    setting: (key) => vscode.workspace.getConfiguration('sextant.research').get<unknown>(key),
  });
}

/** A chat's research host over the window's tools, keys and policy (each chat asks with its own model). */
export function chatResearch(w: {
  tools: ToolsHost;
  providers: ProvidersHost;
  permissions: PermissionHost;
  memento: vscode.Memento;
  log: Logger;
  /** The window's MCP servers: research sources through core/mcp/research-port.ts. */
  mcp?: McpManager;
}): (currentModel: () => string) => ResearchHost {
  return (currentModel) =>
    createResearchHost({
      searchClient: w.tools.searchClient,
      pageFetcher: w.tools.pageFetcher,
      resolveModel: (ref) => w.providers.resolve(ref),
      fastModelRef: (): string => readSettings().fastModel ?? currentModel(),
      workspace: () => ({
        ws: w.tools.ports.workspace,
        rgPath: w.tools.ports.search.ripgrepPath(),
        policy: () => w.permissions.gate.policy(),
      }),
      memento: w.memento,
      log: w.log,
      browser: (runId) => w.tools.researchBrowser(runId),
      ...(w.mcp ? { mcp: mcpResearchPort(w.mcp) } : {}),
    });
}
