// What the hook tests share: two recording tools (bash, write_file), hook settings over an in-memory
// state, a workspace folder that is a repository, a hook engine that runs scripts as real processes, and
// helpers to script a turn and read what it showed. Each test file makes its own `setup(prefix)`.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { HookEngine } from '../../../extension/core/extensions/hooks/hook-engine';
import { boxedHookRunner } from '../../../extension/core/extensions/hooks/hook-process';
import { HookSettings } from '../../../extension/core/extensions/hooks/hook-settings';
import { HookTrust } from '../../../extension/core/extensions/hooks/hook-trust';
import { createPolicy } from '../../../extension/core/permissions';
import type { PermissionSettings } from '../../../extension/core/permissions/types';
import type { ProviderEvent, ProviderRequest } from '../../../extension/core/providers/types';
import type { AuditEntry } from '../../../extension/core/security/audit-log';
import { defaultChildEnv } from '../../../extension/core/security/child-env';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { defineTool } from '../../../extension/core/tools/types';
import type { Envelope, PendingApproval, ToolCallView } from '../../../extension/protocol';
import { NodeWorkspace } from '../../fixtures/node-ports';

/** What the recording tools ran, in order (a test clears it first). */
export const ran: string[] = [];
export const bash = defineTool({
  name: 'bash',
  description: 'runs',
  kind: 'execute',
  permission: { subject: 'command', text: (i: { command: string }) => i.command },
  modes: ['agent'],
  input: z.object({ command: z.string() }),
  subject: (i) => i.command,
  execute: async (i) => {
    ran.push(i.command);
    return { forModel: `ran ${i.command}`, forUi: `ran ${i.command}`, isError: false };
  },
});
export const writeFile = defineTool({
  name: 'write_file',
  description: 'writes',
  kind: 'write',
  permission: { subject: 'path', paths: (i: { file_path: string }) => [i.file_path] },
  modes: ['agent'],
  input: z.object({ file_path: z.string(), content: z.string() }),
  subject: (i) => i.file_path,
  execute: async (i) => {
    ran.push(`write ${i.file_path}`);
    return { forModel: 'written', forUi: 'written', isError: false };
  },
});

export class MemoryState {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

export function setupHooks(
  prefix: string,
  o: { user?: unknown; workspace?: unknown; permissions?: PermissionSettings } = {},
) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  const settings = new HookSettings(new HookTrust(new MemoryState()), () => true);
  settings.setUser(o.user);
  if (o.workspace)
    settings.setWorkspaceFiles([{ file: '.claude/settings.json', text: JSON.stringify({ hooks: o.workspace }) }]);
  const audit: AuditEntry[] = [];
  const engine = new HookEngine({
    hooks: () => settings.inForce(),
    run: boxedHookRunner(() => undefined),
    env: () => defaultChildEnv(),
    cwd: () => root,
    audit: (e) => audit.push(e),
  });
  const policy = createPolicy({
    user: o.permissions ?? {},
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
  const permissions: PermissionGate = { policy: () => policy, rememberRule: async () => undefined };
  return { root, settings, engine, audit, permissions, ws: new NodeWorkspace({ roots: [root] }) };
}

/** A hook script in `dir`; returns the command that runs it. */
export function script(dir: string, name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/bin/bash\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}

export const hooksFor = (event: string, command: string, more: { matcher?: string; timeout?: number } = {}) => ({
  [event]: [
    {
      ...(more.matcher !== undefined ? { matcher: more.matcher } : {}),
      hooks: [{ type: 'command', command, ...(more.timeout ? { timeout: more.timeout } : {}) }],
    },
  ],
});

export const call = (id: string, name: string, args: unknown): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name, argumentsJson: JSON.stringify(args) } },
  { type: 'done', stopReason: 'tool_calls' },
];
export const answer: ProviderEvent[] = [
  { type: 'text', text: 'done' },
  { type: 'done', stopReason: 'end' },
];

export function lastToolResult(req: ProviderRequest | undefined): string {
  const tool = [...(req?.messages ?? [])].reverse().find((m) => m.role === 'tool');
  return JSON.stringify(tool ?? {});
}

export function cards(envs: Envelope[]): ToolCallView[] {
  return envs.flatMap((e) => (e.event.type === 'tool_updated' ? [e.event.call] : []));
}

export function approvals(envs: Envelope[]): PendingApproval[] {
  return envs.flatMap((e) => (e.event.type === 'approval_needed' ? [e.event.approval] : []));
}

export async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 10000 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(pred(), 'timed out');
}
