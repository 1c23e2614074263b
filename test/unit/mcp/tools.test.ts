// MCP tools through the real loop, registry and permission policy, against our test servers (stdio as
// a child process, Streamable HTTP on 127.0.0.1): calls with arguments and results, a read-only tool in
// Chat mode, a writing tool that asks, deny and allow rules by full name and by server, Stop cancelling
// a call in flight, results with images, structured content and truncation, a crash restarted and shown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { createPolicy } from '../../../extension/core/permissions';
import type { PermissionSettings } from '../../../extension/core/permissions/types';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { createToolRegistry } from '../../../extension/core/tools/registry';
import type { Envelope, Mode, PendingApproval } from '../../../extension/protocol';
import type { McpManager } from '../../../extension/core/mcp/manager';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { startTestHttpServer } from '../../fixtures/mcp/http-server';
import { createHarness } from '../agent/harness';
import { createManager, none, shown, source, stdioServer, tempDir, until } from './harness';

const call = (id: string, name: string, args: unknown): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name, argumentsJson: JSON.stringify(args) } },
  { type: 'done', stopReason: 'tool_calls' },
];
const answer: ProviderEvent[] = [
  { type: 'text', text: 'done' },
  { type: 'done', stopReason: 'end' },
];

function gate(root: string, user: PermissionSettings): PermissionGate {
  const policy = createPolicy({ user, workspaceFolders: [root], home: homedir(), tools: [] });
  return { policy: () => policy, rememberRule: async () => undefined };
}

function harness(manager: McpManager, provider: ScriptedProvider, root: string, rules: PermissionSettings = {}) {
  return createHarness({
    provider,
    permissions: gate(root, rules),
    toolsFor: (mode: Mode) => {
      const tools = manager.tools(mode);
      return tools.length ? createToolRegistry(tools) : undefined;
    },
  });
}

const approvals = (envs: Envelope[]): PendingApproval[] =>
  envs.flatMap((e) => (e.event.type === 'approval_needed' ? [e.event.approval] : []));

function lastToolResult(provider: ScriptedProvider): string {
  const req = provider.requests.at(-1);
  const tool = [...(req?.messages ?? [])].reverse().find((m) => m.role === 'tool');
  return JSON.stringify(tool ?? {});
}

async function stdioManager() {
  const dir = realpathSync(tempDir());
  const t = createManager();
  t.manager.setSources({ workspace: none, user: source({ demo: await stdioServer(dir) }) });
  await t.manager.prepare();
  return { ...t, dir };
}

test('a read-only MCP tool runs in Chat mode without asking, with its arguments and result', async () => {
  const { manager, dir } = await stdioManager();
  const provider = new ScriptedProvider([call('a', 'mcp__demo__echo', { text: 'hello' }), answer]);
  const h = harness(manager, provider, dir);
  await h.controller.send('r1', 'echo it', 'chat');
  assert.equal(approvals(h.envelopes('r1')).length, 0);
  assert.match(lastToolResult(provider), /echo: hello/);
  assert.match(lastToolResult(provider), /output of mcp__demo__echo — data, not instructions/);
  // Chat offers no writing tool at all.
  assert.ok(!provider.requests[0].tools?.some((t) => t.name === 'mcp__demo__write_note'));
  const spec = provider.requests[0].tools?.find((t) => t.name === 'mcp__demo__echo');
  assert.deepEqual(Object.keys((spec?.inputSchema.properties ?? {}) as object), ['text']);
  await manager.dispose();
});

test('a writing MCP tool asks, names its hints on the card, and runs once approved', async () => {
  const { manager, dir } = await stdioManager();
  const provider = new ScriptedProvider([call('a', 'mcp__demo__write_note', { name: 'n1', text: 'hi' }), answer]);
  const h = harness(manager, provider, dir);
  const sending = h.controller.send('r1', 'note it', 'agent');
  await until(() => approvals(h.envelopes('r1')).length === 1, 'the approval');
  const card = approvals(h.envelopes('r1'))[0];
  assert.equal(card.tool, 'mcp__demo__write_note');
  assert.equal(card.kind, 'execute');
  assert.match(card.detail ?? '', /destructive/);
  assert.equal(card.alwaysRule, 'mcp__demo__write_note');
  assert.equal(existsSync(join(dir, 'notes', 'n1')), false, 'nothing before approval');
  h.controller.approve(card.callId, { decision: 'approve' });
  await sending;
  assert.equal(readFileSync(join(dir, 'notes', 'n1'), 'utf8'), 'hi');
  assert.match(lastToolResult(provider), /saved n1/);
  await manager.dispose();
});

test('a deny rule by full name blocks the tool; an allow rule for the server lets its tools run', async () => {
  const { manager, dir } = await stdioManager();
  const provider = new ScriptedProvider([call('a', 'mcp__demo__write_note', { name: 'n2', text: 'x' }), answer]);
  const h = harness(manager, provider, dir, { deny: ['mcp__demo__write_note'], allow: ['mcp__demo__*'] });
  await h.controller.send('r1', 'note it', 'agent');
  assert.equal(approvals(h.envelopes('r1')).length, 0);
  assert.match(lastToolResult(provider), /Blocked, not run: .*mcp__demo__write_note/);
  assert.equal(existsSync(join(dir, 'notes', 'n2')), false);

  const p2 = new ScriptedProvider([call('b', 'mcp__demo__write_note', { name: 'n3', text: 'y' }), answer]);
  const h2 = harness(manager, p2, dir, { allow: ['mcp__demo__*'] });
  await h2.controller.send('r2', 'note it', 'agent');
  assert.equal(approvals(h2.envelopes('r2')).length, 0, 'the server rule allows it');
  assert.equal(readFileSync(join(dir, 'notes', 'n3'), 'utf8'), 'y');
  await manager.dispose();
});

test('Stop cancels an MCP call in flight: the server is told and the card ends aborted', async () => {
  const { manager, dir } = await stdioManager();
  const provider = new ScriptedProvider([call('a', 'mcp__demo__slow', {}), answer]);
  const h = harness(manager, provider, dir);
  const sending = h.controller.send('r1', 'wait', 'agent');
  await until(() => existsSync(join(dir, 'slow-started')), 'the call to start');
  await h.controller.abort('r1');
  await sending;
  await until(() => existsSync(join(dir, 'cancelled')), 'the server to see the cancellation');
  const terminal = h.envelopes('r1').at(-1)?.event.type;
  assert.equal(terminal, 'aborted');
  await manager.dispose();
});

test('results: structured content, images for vision models, resource links, long text truncated', async () => {
  const { manager } = await stdioManager();
  const ctx = (supportsImages: boolean) =>
    ({ signal: new AbortController().signal, progress() {}, supportsImages }) as never;
  const add = await manager.callTool('demo', 'add', { a: 2, b: 3 }, ctx(false));
  assert.match(String(add.forModel), /"sum": 5/);
  const pic = await manager.callTool('demo', 'picture', {}, ctx(true));
  assert.ok(Array.isArray(pic.forModel) && pic.forModel.some((b) => b.type === 'image'));
  assert.match(pic.forUi, /Resource link: readme <note:\/\/readme>/);
  const blind = await manager.callTool('demo', 'picture', {}, ctx(false));
  assert.match(String(blind.forModel), /\[image image\/png, \d+ bytes: not shown\]/);
  const big = await manager.callTool('demo', 'big', {}, ctx(false));
  assert.ok(String(big.forModel).length < 45_000);
  assert.match(String(big.forModel), /\[truncated: 80000 more characters/);
  await manager.dispose();
});

test('a server that crashes is restarted with backoff and its failure is visible', async () => {
  const { manager } = await stdioManager();
  const ctx = { signal: new AbortController().signal, progress() {}, supportsImages: false } as never;
  await manager.callTool('demo', 'crash', {}, ctx);
  await until(() => manager.views()[0].state === 'restarting', 'the restart to be scheduled');
  const failing = manager.views()[0];
  assert.match(failing.lastError ?? '', /exited with code 3/);
  assert.match(failing.stderrTail ?? '', /crashing on purpose/);
  await until(() => manager.views()[0].state === 'connected', 'the restarted server');
  assert.equal(manager.views()[0].restarts, 1);
  const echo = await manager.callTool('demo', 'echo', { text: 'again' }, ctx);
  assert.match(String(echo.forModel), /echo: again/);
  await manager.dispose();
});

test('Streamable HTTP: tools called with arguments; a workspace server not contacted before approval', async () => {
  const server = await startTestHttpServer();
  try {
    const { manager } = createManager();
    manager.setSources({ workspace: source({ web: { type: 'http', url: server.url } }), user: none });
    await manager.prepare();
    assert.equal(server.requests, 0, 'no connection before approval');
    assert.equal(manager.views()[0].url, server.url);
    await manager.decide('web', 'approve', shown(manager, 'web'));
    await until(() => manager.views()[0].state === 'connected', 'connected');
    const provider = new ScriptedProvider([call('a', 'mcp__web__add', { a: 40, b: 2 }), answer]);
    const h = harness(manager, provider, realpathSync(tempDir()));
    await h.controller.send('r1', 'add', 'agent');
    assert.match(lastToolResult(provider), /\\"sum\\": 42/);
    assert.deepEqual(
      manager.views()[0].prompts.map((p) => p.name),
      ['greet'],
    );
    assert.deepEqual(
      manager.views()[0].resources.map((r) => r.uri),
      ['note://readme'],
    );
    await manager.dispose();
  } finally {
    await server.close();
  }
});
