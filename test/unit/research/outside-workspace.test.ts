// A research run's file outside the workspace is asked about, not skipped: the read is judged by the
// same permission decision as read_file (the real policy); when it asks, read_file's approval card is
// shown through the real approval broker; approve reads it, deny leaves it out with a reason the
// report's notes carry. Protected and secret files are refused without a card; a missing file is not
// asked about.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { ApprovalBroker } from '../../../extension/core/agent/approval-broker';
import { approveResearchRead } from '../../../extension/core/agent/research-request';
import { createPolicy } from '../../../extension/core/permissions';
import { createWorkspaceSources } from '../../../extension/core/research/workspace/workspace-sources';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import type { RequestEvent } from '../../../extension/protocol';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';

const made: string[] = [];
after(() => Promise.all(made.map((d) => fs.rm(d, { recursive: true, force: true }))));

async function setUp() {
  const root = await makeTempWorkspace({ 'docs/inside.md': '# Inside\n\nRetries inside.\n' });
  const outside = await makeTempWorkspace({
    'rfc.md': '# RFC\n\nRetries wait twice as long each time.\n',
    '.env': 'TOKEN=outside-secret-value\n',
  });
  made.push(root, outside);
  const ports = createNodePorts({ root });
  const policy = createPolicy({ workspaceFolders: [root], home: homedir(), tools: declaredToolFacts() });
  return { root, outside, ports, policy };
}

test('outside the workspace: asked once on the approval card; approve reads it, deny leaves it out', async () => {
  const { outside, ports, policy } = await setUp();
  const asked: Array<{ abs: string; reason: string }> = [];
  let answer = true;
  const sources = createWorkspaceSources({
    ws: ports.workspace,
    rgPath: undefined,
    policy: () => policy,
    approve: async (abs, reason) => {
      asked.push({ abs, reason });
      return answer;
    },
  });
  const rfc = path.join(outside, 'rfc.md');
  const got = await sources.read(rfc, new AbortController().signal);
  assert.ok(typeof got !== 'string', `read after approval: ${String(got)}`);
  assert.match(got.text, /twice as long/);
  assert.equal(asked.length, 1);
  assert.equal(asked[0].abs, rfc);
  assert.match(asked[0].reason, /outside/i);
  // Read once per run: the same file again asks nothing more.
  await sources.read(rfc, new AbortController().signal);
  assert.equal(asked.length, 1);

  answer = false;
  const declinedRun = createWorkspaceSources({
    ws: ports.workspace,
    rgPath: undefined,
    policy: () => policy,
    approve: async (abs, reason) => {
      asked.push({ abs, reason });
      return answer;
    },
  });
  const declined = await declinedRun.read(rfc, new AbortController().signal);
  assert.equal(typeof declined, 'string');
  assert.match(String(declined), /rfc\.md was not read: you declined/);
  assert.equal(asked.length, 2);

  // Without an approval port (a background caller) it is not read, and says it needs approval.
  const noCard = createWorkspaceSources({ ws: ports.workspace, rgPath: undefined, policy: () => policy });
  assert.match(String(await noCard.read(rfc, new AbortController().signal)), /needs your approval/);
});

test('outside the workspace: a secret file is refused without a card; a missing file is not asked about', async () => {
  const { outside, ports, policy } = await setUp();
  const asked: string[] = [];
  const sources = createWorkspaceSources({
    ws: ports.workspace,
    rgPath: undefined,
    policy: () => policy,
    approve: async (abs) => {
      asked.push(abs);
      return true;
    },
  });
  const secret = await sources.read(path.join(outside, '.env'), new AbortController().signal);
  assert.equal(typeof secret, 'string');
  assert.doesNotMatch(String(secret), /outside-secret-value/);
  const missing = await sources.read(path.join(outside, 'nope.md'), new AbortController().signal);
  assert.match(String(missing), /was not found/);
  assert.deepEqual(asked, [], 'no card for a secret or a missing file');
});

test("the card is read_file's approval card, through the same broker: approve → true, deny → false", async () => {
  const broker = new ApprovalBroker({ info() {}, warn() {}, error() {}, debug() {} } as never);
  const events: RequestEvent[] = [];
  const { approval } = broker.portsFor((e) => {
    events.push(e);
    if (e.type === 'approval_needed')
      queueMicrotask(() =>
        broker.approve(e.approval.callId, { decision: e.approval.callId.endsWith('1') ? 'approve' : 'deny' }),
      );
  });
  const req = { sessionId: 's', absPath: '/elsewhere/rfc.md', reason: 'outside the workspace' };
  const signal = new AbortController().signal;
  assert.equal(await approveResearchRead(approval, { ...req, callId: 'r-read-1' }, signal), true);
  assert.equal(await approveResearchRead(approval, { ...req, callId: 'r-read-2' }, signal), false);
  const cards = events.filter((e) => e.type === 'approval_needed');
  assert.equal(cards.length, 2);
  const first = cards[0].type === 'approval_needed' ? cards[0].approval : undefined;
  assert.equal(first?.tool, 'read_file');
  assert.equal(first?.kind, 'read');
  assert.equal(first?.subject, '/elsewhere/rfc.md');
  assert.equal(first?.reason, 'outside the workspace');
  assert.equal(first?.alwaysRule, undefined, 'no "Always allow" for a one-off research read');
  assert.equal(events.filter((e) => e.type === 'approval_resolved').length, 2);
});
