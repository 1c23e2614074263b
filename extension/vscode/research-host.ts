// Research mode's host in VS Code: the engine's research host (extension/engine/research.ts) reading
// `sextant.research.*` from VS Code's settings.
import * as vscode from 'vscode';
import type { ResearchHost } from '../core/research/host';
import { createResearchHost as createEngineResearch, type ResearchHostDeps } from '../engine/research';

export function createResearchHost(deps: Omit<ResearchHostDeps, 'setting'>): ResearchHost {
  return createEngineResearch({
    ...deps,
    setting: (key) => vscode.workspace.getConfiguration('sextant.research').get<unknown>(key),
  });
}
