// A research run's file outside the workspace is asked about, not skipped: the read is judged by the
// same permission decision as read_file (the real policy); when it asks, the approval port (read_file's
// card, wired in request-runner.ts and tested end to end in research-controller.test.ts) decides:
// approve reads it, deny leaves it out with a reason the report's notes carry. Protected and secret
// files are refused without a card; a missing file is not asked about.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { createPolicy } from '../../../extension/core/permissions';
import { createWorkspaceSources } from '../../../extension/core/research/workspace/workspace-sources';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';
import { startFakeLlm } from '../../fixtures/fake-llm';
import * as openai from '../../../extension/core/providers/openai';
import { planResearch } from '../../../extension/core/research/loop/research-planner';

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

test('the planner keeps a path outside the workspace only when the question names it', async (t) => {
  const fake = await startFakeLlm();
  t.after(() => fake.close());
  const provider = openai.createProvider({ name: 'fake', kind: 'openai', baseUrl: `${fake.baseUrl}/v1` }, 'sk-test');
  const plan = (files: string[]) =>
    JSON.stringify({ question: 'q', subQuestions: ['q'], queries: [{ query: 'retries' }], expectedOutput: 'x', files });
  const files = ['docs/inside.md', '/srv/specs/rfc.md', '../other/notes.md', '/etc/shadow', 'not/listed.md'];
  fake.enqueue({ text: plan(files) });
  const question = 'What do docs/inside.md, /srv/specs/rfc.md and ../other/notes.md say about retries?';
  const { plan: got } = await planResearch(
    question,
    { provider, model: 'm' },
    { minSearches: 1, maxSearches: 2 },
    new AbortController().signal,
    { scope: 'workspace', files: ['docs/inside.md'] },
  );
  // Listed files, and outside paths the user typed; not a path the question never named, nor an unlisted one.
  assert.deepEqual(got.files, ['docs/inside.md', '/srv/specs/rfc.md', '../other/notes.md']);
  // Web scope (no listing): no files at all.
  fake.enqueue({ text: plan(files) });
  const web = await planResearch(question, { provider, model: 'm' }, { minSearches: 1, maxSearches: 2 }, signalOf());
  assert.equal(web.plan.files, undefined);
});

const signalOf = () => new AbortController().signal;
