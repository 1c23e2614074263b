// Reads the `sextant.*` settings (DESIGN §12). Read on every use, so edits apply without a reload.
import * as vscode from 'vscode';

export interface SextantSettings {
  providers: unknown;
  defaultModel: string;
  maxSteps: number;
}

export const DEFAULT_MODEL = 'minimax/MiniMax-M2.1';

export function readSettings(): SextantSettings {
  const c = vscode.workspace.getConfiguration('sextant');
  const maxSteps = c.get<number>('agent.maxSteps', 50);
  return {
    providers: c.get<unknown>('providers', []),
    defaultModel: c.get<string>('defaultModel', DEFAULT_MODEL) || DEFAULT_MODEL,
    maxSteps: Number.isFinite(maxSteps) && maxSteps >= 1 ? Math.floor(maxSteps) : 50,
  };
}
