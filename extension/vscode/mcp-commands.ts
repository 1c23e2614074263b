// "Sextant: MCP Servers" — the status panel: every server with its state (waiting for approval,
// starting, connected, failed with its last error and stderr tail), its tools with their descriptions,
// prompts and resources, and the actions restart, disable/enable, show log, re-approve.
// "Sextant: Add MCP Server" — asks for a name and a command line or URL and writes the entry to the
// user's settings (`sextant.mcp.servers`) or the workspace's `.mcp.json`.
import * as vscode from 'vscode';
import type { McpServerView } from '../protocol';
import { MCP_JSON_PATH, SERVER_NAME } from '../core/mcp/config';
import type { McpManager } from '../core/mcp/manager';
import { parseJsonc } from '../core/config/jsonc';
import type { Logger } from '../core/ports';

const STATE_TEXT: Record<McpServerView['state'], string> = {
  needs_approval: 'waiting for your approval (in the chat view)',
  denied: 'denied',
  untrusted: 'not started: the workspace is not trusted',
  disabled: 'disabled',
  stopped: 'not started yet (starts on first use)',
  starting: 'starting…',
  connected: 'connected',
  restarting: 'restarting after a failure',
  failed: 'failed',
};

function describe(s: McpServerView): string {
  const tools = s.state === 'connected' ? ` · ${s.tools.length} tools` : '';
  return `${STATE_TEXT[s.state]}${tools}${s.restarts ? ` · ${s.restarts} restarts` : ''}`;
}

type Action = vscode.QuickPickItem & { run?: () => Promise<unknown> | unknown };

export interface McpPanelActions {
  /** Stores a remote server's static bearer token in SecretStorage. */
  setBearerToken(server: string): Promise<void>;
}

export async function showMcpServers(
  manager: McpManager,
  channel: vscode.LogOutputChannel,
  actions: McpPanelActions,
): Promise<void> {
  const servers = manager.views();
  if (!servers.length) {
    const add = 'Add MCP Server';
    const pick = await vscode.window.showInformationMessage(
      `Sextant: no MCP servers are configured (${MCP_JSON_PATH} in the workspace, or sextant.mcp.servers).`,
      add,
    );
    if (pick === add) await vscode.commands.executeCommand('sextant.addMcpServer');
    return;
  }
  const pick = await vscode.window.showQuickPick(
    servers.map((s) => ({
      label: s.name,
      description: `${s.scope === 'workspace' ? '.mcp.json' : 'user settings'} · ${describe(s)}`,
      detail: s.lastError ? `Last error: ${s.lastError}` : (s.commandLine ?? s.url),
      server: s,
    })),
    { title: 'Sextant: MCP Servers', placeHolder: 'Pick a server to see its tools and act on it' },
  );
  if (pick) await serverActions(manager, channel, actions, pick.server);
}

async function serverActions(
  manager: McpManager,
  channel: vscode.LogOutputChannel,
  actions: McpPanelActions,
  s: McpServerView,
): Promise<void> {
  const items: Action[] = [];
  const sep = (label: string): Action => ({ label, kind: vscode.QuickPickItemKind.Separator });
  items.push(sep('Actions'));
  if (s.state === 'connected' || s.state === 'failed' || s.state === 'restarting' || s.state === 'stopped')
    items.push({ label: '$(debug-restart) Restart', run: () => manager.restart(s.name) });
  items.push(
    s.state === 'disabled'
      ? { label: '$(play) Enable', run: () => manager.setDisabled(s.name, false) }
      : { label: '$(circle-slash) Disable', run: () => manager.setDisabled(s.name, true) },
  );
  items.push({ label: '$(output) Show log', run: () => channel.show(true) });
  items.push({
    label: '$(shield) Re-approve',
    description: 'forget the approval and the recorded tool list; ask again',
    run: () => manager.reapprove(s.name),
  });
  if (s.transport !== 'stdio')
    items.push({
      label: '$(key) Set bearer token',
      description: 'kept in SecretStorage; for servers that take a static token instead of OAuth',
      run: () => actions.setBearerToken(s.name),
    });
  if (s.stderrTail) items.push({ label: '$(warning) Stderr (last lines)', detail: s.stderrTail.slice(-500) });
  if (s.tools.length) {
    items.push(sep(`Tools (${s.tools.length})`));
    for (const t of s.tools)
      items.push({
        label: `mcp__${s.name}__${t.name}`,
        description: [
          t.readOnly ? 'read-only' : 'asks',
          t.destructive ? 'destructive' : '',
          t.openWorld ? 'open world' : '',
        ]
          .filter(Boolean)
          .join(', '),
        detail: t.description,
      });
  }
  if (s.prompts.length) {
    items.push(sep(`Prompts (${s.prompts.length})`));
    for (const p of s.prompts) items.push({ label: `/mcp__${s.name}__${p.name}`, detail: p.description });
  }
  if (s.resources.length) {
    items.push(sep(`Resources (${s.resources.length})`));
    for (const r of s.resources) items.push({ label: `@${s.name}:${r.uri}`, detail: r.name });
  }
  if (s.resourceTemplates.length) {
    items.push(sep(`Resource templates (${s.resourceTemplates.length})`));
    for (const t of s.resourceTemplates) items.push({ label: `@${s.name}:${t.uriTemplate}`, detail: t.name });
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: `MCP server ${s.name} — ${describe(s)}`,
    matchOnDetail: true,
  });
  await pick?.run?.();
}

/** Splits a command line on spaces, keeping quoted parts together. */
function splitCommandLine(line: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

export async function addMcpServer(log: Logger): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  const where = await vscode.window.showQuickPick(
    [
      {
        label: 'User settings',
        description: 'sextant.mcp.servers — yours, in every workspace',
        target: 'user' as const,
      },
      ...(folder
        ? [
            {
              label: `Workspace ${MCP_JSON_PATH}`,
              description: 'shared with the repository; asks before it starts',
              target: 'workspace' as const,
            },
          ]
        : []),
    ],
    { title: 'Sextant: Add MCP Server — where' },
  );
  if (!where) return;
  const kind = await vscode.window.showQuickPick(
    [
      {
        label: 'Command (stdio)',
        description: 'a program Sextant starts, e.g. npx -y @modelcontextprotocol/server-memory',
        transport: 'stdio' as const,
      },
      {
        label: 'URL (Streamable HTTP)',
        description: 'a remote server, e.g. https://mcp.example.com/mcp',
        transport: 'http' as const,
      },
    ],
    { title: 'Sextant: Add MCP Server — kind' },
  );
  if (!kind) return;
  const name = await vscode.window.showInputBox({
    title: 'Sextant: Add MCP Server — name',
    prompt: 'Its tools are named mcp__<name>__<tool>',
    validateInput: (v) => (SERVER_NAME.test(v) ? undefined : 'Letters, digits, "_" and "-" only'),
  });
  if (!name) return;
  const target = await vscode.window.showInputBox({
    title: `Sextant: Add MCP Server — ${kind.transport === 'stdio' ? 'command line' : 'URL'}`,
    prompt:
      kind.transport === 'stdio'
        ? 'The command and its arguments; $' + '{VAR} reads your environment'
        : 'https://…; a token goes in a header such as Authorization: Bearer $' + '{TOKEN}',
    validateInput: (v) => {
      if (!v.trim()) return 'Required';
      if (kind.transport === 'http' && !/^https?:\/\//.test(v.trim())) return 'An http:// or https:// URL';
      return undefined;
    },
  });
  if (!target) return;
  const entry =
    kind.transport === 'stdio'
      ? (() => {
          const [command, ...args] = splitCommandLine(target.trim());
          return { command, ...(args.length ? { args } : {}) };
        })()
      : { type: 'http', url: target.trim() };
  if (where.target === 'user') {
    const config = vscode.workspace.getConfiguration('sextant');
    const current = config.inspect<Record<string, unknown>>('mcp.servers')?.globalValue ?? {};
    await config.update('mcp.servers', { ...current, [name]: entry }, vscode.ConfigurationTarget.Global);
    log.info(`mcp: added ${name} to sextant.mcp.servers`);
    return;
  }
  if (!folder) return;
  const uri = vscode.Uri.joinPath(folder.uri, MCP_JSON_PATH);
  let file: { mcpServers: Record<string, unknown> } = { mcpServers: {} };
  try {
    const parsed = parseJsonc(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) {
      void vscode.window.showErrorMessage(`Sextant: ${MCP_JSON_PATH} is not valid JSON; fix it first.`);
      return;
    }
    file = { mcpServers: {}, ...(parsed.value as Record<string, unknown>) } as typeof file;
  } catch {
    // No file yet.
  }
  file.mcpServers = { ...file.mcpServers, [name]: entry };
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(`${JSON.stringify(file, null, 2)}\n`));
  log.info(`mcp: added ${name} to ${MCP_JSON_PATH}`);
  await vscode.window.showTextDocument(uri);
}
