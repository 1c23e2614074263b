// Small values the engine keeps between runs (the reasoning choice per model, the user's MCP server
// decisions), in `~/.sextant/state.json`, owner-only. A run's own decisions about the workspace's
// servers and hooks stay in memory (memoryState): trust is given per run (--trust-workspace) or by the
// user's config, never remembered from an earlier run.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { KeyValueState } from '../engine/state';

export function fileState(file: string): KeyValueState {
  let values: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) values = parsed as Record<string, unknown>;
  } catch {
    // missing or damaged: start empty (it holds preferences only)
  }
  return {
    get: <T>(key: string) => values[key] as T | undefined,
    update: async (key, value) => {
      values = { ...values, [key]: value };
      // Written whole and renamed: a crash never leaves half a file.
      writeFileSync(`${file}.tmp`, JSON.stringify(values, null, 2), { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    },
  };
}

export function memoryState(): KeyValueState {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (key, value) => void values.set(key, value),
  };
}
