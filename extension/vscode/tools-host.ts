// The tool side of the runtime in VS Code: the engine's tools (extension/engine/tools.ts) reaching the
// editor through VS Code's adapters — open documents and undoable edits, the ripgrep VS Code ships,
// the "Sextant" terminal mirror and the language services — with the user's settings.
import type * as vscode from 'vscode';
import * as vscodeApi from 'vscode';
import { createLanguagePort } from './adapters/language';
import { createSearchPort } from './adapters/search';
import { createTerminalPort } from './adapters/terminal';
import { createWorkspacePort } from './adapters/workspace';
import { confirmKeyDestination } from './key-commands';
import { vscodeSettings } from './settings';
import { ToolsHost as EngineTools, type ToolsHostDeps as EngineToolsDeps } from '../engine/tools';

export type { ExternalTools } from '../engine/tools';

export type ToolsHostDeps = Omit<
  EngineToolsDeps,
  'settings' | 'env' | 'hostPorts' | 'confirmKeyDestination' | 'bundleDir'
>;

export class ToolsHost extends EngineTools implements vscode.Disposable {
  constructor(deps: ToolsHostDeps) {
    super({
      ...deps,
      settings: vscodeSettings,
      env: process.env,
      hostPorts: {
        workspace: createWorkspacePort(),
        search: createSearchPort(),
        terminal: createTerminalPort(),
        language: createLanguagePort(),
      },
      confirmKeyDestination,
      bundleDir: __dirname,
    });
  }
}

export function onTrustGranted(tools: ToolsHost): vscode.Disposable {
  return vscodeApi.workspace.onDidGrantWorkspaceTrust(() => tools.rebuild());
}
