// The language-model tools other extensions register, offered beside the built-ins (Agent mode only)
// through the same registry and policy as MCP tools. Left out: the editor's and Copilot's own agent
// tools (`copilot_*`, `vscode_*`, `*_internal`) — they duplicate Sextant's built-ins and expect the chat
// request of their own UI — and Sextant's own (it contributes none: see README.md beside this file).
import type { Mode } from '../../protocol';
import type { AnyTool } from '../tools/types';
import { sha256 } from '../mcp/server-spec';
import { lmTool } from './lm-tool';
import type { LanguageModelToolsPort, LmToolInfo } from './port';

const EDITOR_OWN = /^(?:copilot_|vscode_)|_internal$/;

export function offeredLmTools(list: readonly LmToolInfo[]): LmToolInfo[] {
  return list.filter((t) => !EDITOR_OWN.test(t.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export class LanguageModelTools {
  private cache: { key: string; tools: AnyTool[] } | undefined;

  constructor(
    private readonly port: LanguageModelToolsPort,
    private readonly enabled: () => boolean,
  ) {}

  private current(): LmToolInfo[] {
    return this.enabled() ? offeredLmTools(this.port.list()) : [];
  }

  /** The tools of `mode`: all of them in Agent, none elsewhere (nothing says one only reads). */
  tools(mode: Mode): AnyTool[] {
    if (mode !== 'agent') return [];
    const list = this.current();
    const key = this.keyOf(list);
    if (this.cache?.key !== key) this.cache = { key, tools: list.map((t) => lmTool(t, this.port)) };
    return this.cache.tools;
  }

  /** Changes when a tool is registered, removed or redescribed, so the host rebuilds its registries. */
  toolsKey(): string {
    return this.keyOf(this.current());
  }

  private keyOf(list: readonly LmToolInfo[]): string {
    return list.length ? sha256(JSON.stringify(list)).slice(0, 16) : '';
  }
}
