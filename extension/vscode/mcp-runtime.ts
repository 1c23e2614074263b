// MCP as the runtime wires it: the "Sextant MCP" log channel (redacted like the main one), the host,
// its stdio servers started in the same box as commands, its tools offered beside the built-ins, and
// the first-use start a turn awaits before it takes its tools. Kept apart from runtime.ts so the
// runtime composes parts instead of spelling each one out.
import * as vscode from 'vscode';
import type { Mode, Outbound } from '../protocol';
import { boxedSpawner } from '../core/mcp/boxed-spawn';
import { spawnServer } from '../core/mcp/spawn';
import type { Logger, SecretsPort } from '../core/ports';
import { redactLogSecrets } from './adapters/log-channel';
import { McpHost } from './mcp-host';
import type { ToolsHost } from './tools-host';
import { useLanguageModelTools } from './lm-tools-port';

export interface RuntimeMcp {
  host: McpHost;
  channel: vscode.LogOutputChannel;
  /** Starts the servers that may run (first use) and settles when they are ready, failed, or `signal` aborts. */
  prepareTools(mode: Mode, signal: AbortSignal): Promise<void>;
}

export function createRuntimeMcp(o: {
  context: vscode.ExtensionContext;
  log: Logger;
  post(message: Outbound): void;
  tools: ToolsHost;
  secrets: SecretsPort;
  knownSecrets: Iterable<string>;
  trusted(): boolean;
}): RuntimeMcp {
  const channel = vscode.window.createOutputChannel('Sextant MCP', { log: true });
  redactLogSecrets(channel, o.knownSecrets);
  const host = new McpHost({
    context: o.context,
    log: o.log,
    post: o.post,
    // The keys' guards every process passes: commands and MCP stdio servers alike.
    scrubbedEnv: () => o.tools.ports.childEnv?.() ?? {},
    // stdio servers start in the same box as commands (where a backend works and the box is on).
    spawn: boxedSpawner({
      sandbox: () => o.tools.ports.sandbox,
      unboxed: spawnServer,
      cwd: () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    }),
    channel,
    secrets: o.secrets,
  });
  o.context.subscriptions.push(channel, host);
  o.tools.useExternalTools(host.manager);
  // Other extensions' language-model tools join the same registry and policy (core/lm-tools).
  useLanguageModelTools(o.tools);
  const prepareTools = async (mode: Mode, signal: AbortSignal): Promise<void> => {
    if (mode === 'research' || !o.trusted() || signal.aborted) return;
    let onAbort!: () => void;
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([host.manager.prepare(), aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
  return { host, channel, prepareTools };
}
