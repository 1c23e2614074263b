// The workspace's own files that change what the engine may do, read as the extension reads them: its
// `.sextant/settings.json` (which may only tighten), and whether its MCP servers and hooks run — with
// trust (--trust-workspace, or the user's config) they run without a card; without it they stay off and
// the user is told once how to allow them.
import * as path from 'node:path';
import type { Logger, WorkspacePort } from '../core/ports';
import type { createEngineHooks } from './hooks';
import type { createMcpManager } from './mcp';

/** `.sextant/settings.json` of the first folder: it may only add ask/deny rules and a stricter mode. */
export async function readWorkspaceSettings(workspace: WorkspacePort, root: string | undefined, log: Logger) {
  const { parseWorkspaceSettings, WORKSPACE_SETTINGS_PATH } = await import('../core/config/workspace-settings');
  if (!root) return { problems: [] };
  let text: string;
  try {
    text = Buffer.from(
      await workspace.readFile(path.join(root, ...WORKSPACE_SETTINGS_PATH.split('/')), { maxBytes: 1_000_000 }),
    ).toString('utf8');
  } catch {
    return { problems: [] };
  }
  const parsed = parseWorkspaceSettings(text);
  for (const p of parsed.problems) log.warn(`workspace settings: ${p}`);
  return parsed;
}

/** --trust-workspace (or the user's config): the workspace's servers and hooks run without a card. */
export async function trustWorkspaceExtensions(
  mcp: ReturnType<typeof createMcpManager>,
  hooks: ReturnType<typeof createEngineHooks>,
  log: Logger,
): Promise<void> {
  for (const view of mcp.views()) {
    if (view.state !== 'needs_approval' || !view.approval) continue;
    await mcp.decide(view.name, 'approve', {
      configHash: view.approval.configHash,
      ...(view.approval.toolsHash ? { toolsHash: view.approval.toolsHash } : {}),
    });
    log.info(`mcp: the workspace's server "${view.name}" runs (the workspace is trusted)`);
  }
  const ws = hooks.settings.view().workspace;
  if (ws && ws.state !== 'approved') {
    await hooks.decide(ws.hash, 'approve');
    log.info("hooks: the workspace's hooks run (the workspace is trusted)");
  }
}

const UNTRUSTED =
  'the workspace is not trusted (pass --trust-workspace, or list it in ~/.sextant/config.json "trustedWorkspaces")';

/** Without trust the workspace's servers and hooks stay off: said once, with how to allow them. */
export function reportUntrusted(
  mcp: ReturnType<typeof createMcpManager>,
  hooks: ReturnType<typeof createEngineHooks>,
  log: Logger,
): void {
  const servers = mcp.views().filter((v) => v.state === 'needs_approval' || v.state === 'untrusted');
  if (servers.length)
    log.warn(`mcp: the workspace's servers ${servers.map((s) => `"${s.name}"`).join(', ')} do not start: ${UNTRUSTED}`);
  const ws = hooks.settings.view().workspace;
  if (ws && ws.state !== 'approved') log.warn(`hooks: the workspace's hooks do not run: ${UNTRUSTED}`);
}
