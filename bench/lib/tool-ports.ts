// Minimal Node-fs ports for tool benchmarks (bench/ may not import test/ fixtures).
import { promises as fs } from 'node:fs';
import type { FileStat, ToolPorts } from '../../extension/core/ports';
import type { ToolContext } from '../../extension/core/tools/types';
import { createToolSessionState } from '../../extension/core/tools/registry';

export function benchPorts(root: string, ripgrep: string | undefined): ToolPorts {
  return {
    workspace: {
      roots: () => [root],
      readFile: (p) => fs.readFile(p),
      dirtyText: async () => undefined,
      writeFile: (p, d) => fs.writeFile(p, d),
      applyTextEdit: async (p, _t, d) => {
        await fs.writeFile(p, d);
        return 'disk';
      },
      stat: async (p): Promise<FileStat | undefined> => {
        const s = await fs.stat(p).catch(() => undefined);
        return s && { type: s.isDirectory() ? 'directory' : 'file', size: s.size, mtimeMs: s.mtimeMs };
      },
      readDir: async (p) =>
        (await fs.readdir(p, { withFileTypes: true })).map((e) => ({ name: e.name, type: e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other' })),
      realPath: (p) => fs.realpath(p),
      excludeGlobs: () => ['**/node_modules'],
    },
    search: { ripgrepPath: () => ripgrep },
    terminal: {},
    approval: { request: async () => ({ decision: 'approve' }) },
    ask: { ask: async () => [] },
    log: { info() {}, warn() {}, error() {} },
  };
}

export function benchContext(ports: ToolPorts): ToolContext {
  return { signal: new AbortController().signal, ports, session: createToolSessionState('bench'), callId: 'bench', progress() {}, supportsImages: false };
}

export { grepTool } from '../../extension/core/tools/grep';
export { ripgrepArgs } from '../../extension/core/tools/util/grep-search';
