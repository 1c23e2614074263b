// The cross-session write guard through the real permission decision, with two chats (two slots) of one
// window sharing its record of what running chats changed: chat A writes notes.txt and keeps running; chat
// B — no worktree of its own, in a mode that lets writes in the workspace run without asking — is asked
// before it writes notes.txt, and the card names A ("… changed this file 3 min ago and is still running").
// Once A's request ends, B writes it without asking; a chat in its own worktree is never asked on A's account.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { createPolicy } from '../../../extension/core/permissions';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { SessionWrites } from '../../../extension/core/sessions/session-writes';
import { readFileTool } from '../../../extension/core/tools/read-file';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { writeFileTool } from '../../../extension/core/tools/write-file';
import type { Envelope, PendingApproval } from '../../../extension/protocol';
import { makeTempWorkspace, NodeWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness } from '../agent/harness';

const call = (id: string, name: string, args: unknown): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name, argumentsJson: JSON.stringify(args) } },
  { type: 'done', stopReason: 'tool_calls' },
];
const say = (text: string): ProviderEvent[] => [
  { type: 'text', text },
  { type: 'done', stopReason: 'end' },
];

function approvals(envs: Envelope[]): PendingApproval[] {
  return envs.flatMap((e) => (e.event.type === 'approval_needed' ? [e.event.approval] : []));
}

async function until<T>(what: string, probe: () => T | undefined | false): Promise<T> {
  for (let i = 0; i < 5000; i++) {
    const v = probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Writes in the workspace run without asking (acceptEdits): only the guard can make them ask. */
function acceptEdits(root: string): PermissionGate {
  const policy = createPolicy({
    user: { defaultMode: 'acceptEdits' },
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
  return { policy: () => policy, rememberRule: async () => {} };
}

async function twoChats(t: { after(fn: () => void): void }, bOwnWorktree = false) {
  const root = await makeTempWorkspace({ 'src/app.js': 'x\n' });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  let clock = 1_000_000;
  const writes = new SessionWrites(() => clock);
  const ws = new NodeWorkspace({ roots: [root] });
  const permissions = acceptEdits(root);
  const tools = [readFileTool, writeFileTool];
  // A writes notes.txt, then keeps running: its next model call is held until the test lets it end.
  const providerA = new ScriptedProvider([
    call('a1', 'write_file', { file_path: 'notes.txt', content: 'from A\n' }),
    say('A is done'),
  ]);
  let releaseA!: () => void;
  providerA.holdNextStepUntil(Promise.resolve());
  providerA.holdNextStepUntil(new Promise<void>((r) => (releaseA = r)));
  const a = createHarness({
    provider: providerA,
    tools,
    workspace: ws,
    permissions,
    writes: { all: writes, ownWorktree: () => false },
    idPrefix: 'a',
  });
  // B reads notes.txt (write_file overwrites only what was read), then writes it.
  const providerB = new ScriptedProvider([
    call('b1', 'read_file', { file_path: 'notes.txt' }),
    call('b2', 'write_file', { file_path: 'notes.txt', content: 'from B\n' }),
    say('B wrote it'),
    call('b3', 'write_file', { file_path: 'notes.txt', content: 'from B again\n' }),
    say('B wrote it again'),
  ]);
  const b = createHarness({
    provider: providerB,
    tools,
    workspace: ws,
    permissions,
    writes: { all: writes, ownWorktree: () => bOwnWorktree },
    idPrefix: 'b',
  });
  const aRunning = a.controller.send('ra', 'Write the release notes', 'agent');
  await until('A to write notes.txt', () => existsSync(join(root, 'notes.txt')));
  await until('A to be waiting for its model', () => providerA.requests.length === 2);
  clock += 3 * 60_000 + 5_000;
  return { root, a, b, aRunning, releaseA: () => releaseA() };
}

test('a chat asks before writing a file another running chat changed, naming it; not once it ended', async (t) => {
  const { root, a, b, aRunning, releaseA } = await twoChats(t);
  assert.equal(approvals(a.envelopes()).length, 0, 'A wrote without asking (acceptEdits)');

  const bRunning = b.controller.send('rb', 'Fix the notes', 'agent');
  const [asked] = await until('B to be asked', () => {
    const list = approvals(b.envelopes('rb'));
    return list.length ? list : undefined;
  });
  assert.equal(asked?.tool, 'write_file');
  const title = a.controller.currentSessionRef()?.title ?? '';
  assert.ok(title);
  assert.equal(asked?.reason, `“${title}” changed this file 3 min ago and is still running`);
  assert.equal(asked?.alwaysRule, undefined, 'no "Always allow": a rule cannot settle this');
  assert.equal(readFileSync(join(root, 'notes.txt'), 'utf8'), 'from A\n', 'nothing written before the answer');
  b.controller.approve(asked.callId, { decision: 'approve' });
  await bRunning;
  assert.equal(readFileSync(join(root, 'notes.txt'), 'utf8'), 'from B\n');

  // A's request ends: its changes no longer hold B back.
  releaseA();
  await aRunning;
  await b.controller.send('rb2', 'Once more', 'agent');
  assert.equal(approvals(b.envelopes('rb2')).length, 0, 'A ended: the write runs as the mode allows');
  assert.equal(readFileSync(join(root, 'notes.txt'), 'utf8'), 'from B again\n');
});

test('a chat in its own worktree is not asked on another chat’s account', async (t) => {
  const { root, b, aRunning, releaseA } = await twoChats(t, true);
  await b.controller.send('rb', 'Fix the notes', 'agent');
  assert.equal(approvals(b.envelopes('rb')).length, 0);
  assert.equal(readFileSync(join(root, 'notes.txt'), 'utf8'), 'from B\n');
  releaseA();
  await aRunning;
});

test('the record: the latest other change is named, a deny stays a deny, an ended chat is forgotten', () => {
  let now = 0;
  const writes = new SessionWrites(() => now);
  const guard = (id: string) =>
    writes.guardFor(
      () => ({ id, title: `chat ${id}` }),
      () => false,
    );
  guard('a').changed('/w/x.ts');
  now = 2 * 60_000;
  guard('c').changed('/w/x.ts');
  now += 20_000;
  const allow = { decision: 'allow' as const, reason: 'acceptEdits allows it', source: 'default' as const };
  assert.deepEqual(guard('b').judge(allow, [undefined, '/w/x.ts']), {
    ...allow,
    decision: 'ask',
    reason: '“chat c” changed this file less than a minute ago and is still running',
  });
  assert.equal(
    guard('a').judge(allow, ['/w/x.ts']).reason,
    '“chat c” changed this file less than a minute ago and is still running',
  );
  const deny = { decision: 'deny' as const, reason: 'a deny rule', source: 'rule' as const };
  assert.equal(guard('b').judge(deny, ['/w/x.ts']), deny);
  assert.equal(guard('b').judge(allow, ['/w/y.ts']), allow, 'a file no other chat changed');
  guard('c').ended();
  assert.equal(
    guard('b').judge(allow, ['/w/x.ts']).reason,
    '“chat a” changed this file 2 min ago and is still running',
  );
  guard('a').ended();
  assert.equal(guard('b').judge(allow, ['/w/x.ts']), allow, 'both ended');
});
