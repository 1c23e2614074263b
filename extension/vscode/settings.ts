// Reads the `sextant.*` settings. Read on every use, so edits apply without a reload.
import * as vscode from 'vscode';

export interface EmbeddingsSetting {
  /** A configured provider whose base URL and key are used (e.g. "openai"). */
  provider?: string;
  baseUrl?: string;
  model: string;
  apiKeyEnv?: string;
}

export interface SextantSettings {
  providers: unknown;
  defaultModel: string;
  maxSteps: number;
  embeddings: EmbeddingsSetting | undefined;
}

export const DEFAULT_MODEL = 'minimax/MiniMax-M2.1';

export function readSettings(): SextantSettings {
  const c = vscode.workspace.getConfiguration('sextant');
  const maxSteps = c.get<number>('agent.maxSteps', 50);
  return {
    providers: c.get<unknown>('providers', []),
    defaultModel: c.get<string>('defaultModel', DEFAULT_MODEL) || DEFAULT_MODEL,
    maxSteps: Number.isFinite(maxSteps) && maxSteps >= 1 ? Math.floor(maxSteps) : 50,
    embeddings: embeddingsSetting(c.get<unknown>('memory.embeddings')),
  };
}

/** The embeddings setting, or undefined when unset or unusable (memory search then uses BM25 alone). */
function embeddingsSetting(raw: unknown): EmbeddingsSetting | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const model = str(r.model);
  if (!model) return undefined;
  return { model, provider: str(r.provider), baseUrl: str(r.baseUrl), apiKeyEnv: str(r.apiKeyEnv) };
}
