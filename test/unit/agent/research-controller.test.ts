// Research through the session controller: Research mode is offered only with a research host; Plan
// Research proposes the research kind of plan; Approve plan runs the researcher on that plan (its
// queries, no second planning call); the report is journaled as a message part and as an artifact
// with its citations, and the model history gets the question and the verified report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import type { ResearchHost } from '../../../extension/core/research/host';
import { DEFAULT_LIMITS } from '../../../extension/core/research/loop/research-run';
import { researchPlanToMarkdown, type PlanArtifact } from '../../../extension/protocol';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { homedir } from 'node:os';
import * as path from 'node:path';
import type { Provider } from '../../../extension/core/providers/types';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { createWorkspaceSources } from '../../../extension/core/research/workspace/workspace-sources';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';
import { assertEnvelopeInvariants, createHarness } from './harness';

const done: ProviderEvent = { type: 'done', stopReason: 'end' };
const text = (t: string): ProviderEvent[] => [{ type: 'text', text: t }, done];

function host(searched: string[]): ResearchHost {
  return {
    services: async () => ({
      search: async (q) => {
        searched.push(q.query);
        return [{ title: 'Edition notes', url: `https://a.example/${searched.length}`, snippet: '', source: 'exa' }];
      },
      fetchPage: async (url) => ({
        url,
        finalUrl: url,
        title: 'Edition notes',
        markdown: 'The Rust 2024 edition shipped with Rust 1.85 in February 2025.',
        text: 'The Rust 2024 edition shipped with Rust 1.85 in February 2025.',
        contentType: 'text/html',
        truncated: false,
        fetchedAt: 1,
      }),
    }),
    limits: () => ({ ...DEFAULT_LIMITS, minSearches: 2, maxSearches: 2 }),
  };
}

test('Research mode is offered only when the host wires research', async () => {
  const without = createHarness({ provider: new ScriptedProvider([]) });
  const modes = (await without.controller.snapshot()).modes;
  assert.equal(modes.find((m) => m.mode === 'research')?.enabled, false);
  const withHost = createHarness({ provider: new ScriptedProvider([]), research: host([]) });
  assert.equal((await withHost.controller.snapshot()).modes.find((m) => m.mode === 'research')?.enabled, true);
});

test('Plan Research proposes a research plan; Approve runs it without planning again; the report is kept', async () => {
  const plan = {
    question: 'When did the Rust 2024 edition ship?',
    subQuestions: ['Which release?'],
    queries: [{ query: 'rust 2024 edition release' }, { query: 'rust 1.85 release date' }],
    expectedOutput: 'A dated answer.',
  };
  const provider = new ScriptedProvider([
    text(JSON.stringify(plan)), // Plan Research: the planner
    text('The Rust 2024 edition shipped with Rust 1.85 in February 2025 [1].'), // the writer
  ]);
  const searched: string[] = [];
  const h = createHarness({ provider, research: host(searched) });
  await h.controller.send('p1', 'When did the Rust 2024 edition ship?', 'plan', { planResearch: true });
  const proposed = h
    .envelopes('p1')
    .flatMap((e) => (e.event.type === 'plan_proposed' ? [e.event.plan] : []))[0] as PlanArtifact;
  assert.equal(proposed.kind, 'research');
  assert.deepEqual(searched, [], 'nothing is searched before the plan is approved');

  assert.equal(await h.controller.approvePlan(proposed.id, 'r1'), true);
  assert.deepEqual(searched, ['rust 2024 edition release', 'rust 1.85 release date']);
  assert.equal(provider.requests.length, 2, 'no second planning call');
  assert.match(provider.requests[1].system ?? '', /You write a research report/);
  assert.equal((await h.controller.snapshot()).mode, 'research');

  const report = h.envelopes('r1').flatMap((e) => (e.event.type === 'report' ? [e.event.report] : []))[0];
  assert.ok(report);
  assert.deepEqual(
    report.sources.map((s) => s.n),
    [1],
  );
  const artifact = h.persistence.records.find((r) => r.kind === 'artifact');
  assert.equal(artifact?.kind === 'artifact' ? artifact.artifact.kind : '', 'report');
  assert.equal(artifact?.kind === 'artifact' ? artifact.artifact.citations?.[0]?.url : '', report.sources[0].url);
  const history = h.persistence.records.flatMap((r) => (r.kind === 'model_messages' ? r.messages : []));
  assert.deepEqual(
    history.slice(-2).map((m) => m.role),
    ['user', 'assistant'],
  );
  assert.equal(h.controller.reports()[0]?.id, report.id);
  // plan_status travels on a request of its own, without started or terminal events.
  assertEnvelopeInvariants(h.envelopes().filter((e) => !e.requestId.startsWith('plan-')));
});

test("a research plan naming a file outside the workspace asks with read_file's card before reading it", async () => {
  const root = await makeTempWorkspace({
    'docs/retries.md': '# Retries\n\nThe client retries a request three times.\n',
  });
  const outside = await makeTempWorkspace({ 'rfc.md': '# RFC\n\nServers answer within thirty seconds or time out.\n' });
  const outsideFile = path.join(outside, 'rfc.md');
  const policy = createPolicy({ workspaceFolders: [root], home: homedir(), tools: declaredToolFacts() });
  const ws = createNodePorts({ root }).workspace;
  const research: ResearchHost = {
    ...host([]),
    defaults: () => ({ clarify: 'never', filters: {} }),
    scope: () => 'workspace',
    workspaceServices: async (approve) => ({
      search: async () => [],
      fetchPage: async () => {
        throw new Error('no web');
      },
      workspace: createWorkspaceSources({
        ws,
        rgPath: undefined,
        policy: () => policy,
        ...(approve ? { approve } : {}),
      }),
    }),
  };
  // The model by role: the planner names the workspace file; the writer cites what it was given.
  const provider: Provider = {
    name: 'roles',
    kind: 'openai',
    async *stream(req) {
      const system = req.system ?? '';
      const user = JSON.stringify(req.messages);
      let out = '{}';
      if (system.includes('You plan web research'))
        out = JSON.stringify({
          question: 'How do retries and timeouts work?',
          subQuestions: ['What do the documents say?'],
          queries: [{ query: 'retries timeout' }],
          expectedOutput: 'A cited answer.',
          files: ['docs/retries.md'],
        });
      else if (system.includes('You write a research report'))
        out = /rfc\.md/.test(user)
          ? 'The client retries a request three times [1]. Servers answer within thirty seconds or time out [2].'
          : 'The client retries a request three times [1].';
      else if (system.includes('You review web research')) out = '{"enough": true, "queries": []}';
      yield { type: 'text', text: out };
      yield done;
    },
  };
  for (const answer of ['deny', 'approve'] as const) {
    const h = createHarness({ provider, research, workspace: ws });
    await h.controller.send(`p-${answer}`, 'How do retries and timeouts work?', 'plan', { planResearch: true });
    const proposed = h
      .envelopes(`p-${answer}`)
      .flatMap((e) => (e.event.type === 'plan_proposed' ? [e.event.plan] : []))[0] as PlanArtifact;
    assert.ok(proposed, 'a research plan was proposed');
    // The user adds a document from elsewhere on disk to the plan's files before approving it.
    const edited = researchPlanToMarkdown({
      question: 'How do retries and timeouts work?',
      subQuestions: ['What do the documents say?'],
      queries: [{ query: 'retries timeout' }],
      expectedOutput: 'A cited answer.',
      files: ['docs/retries.md', outsideFile],
      scope: 'workspace',
    });
    const requestId = `r-${answer}`;
    const running = h.controller.approvePlan(proposed.id, requestId, edited);
    await until(() => h.envelopes(requestId).some((e) => e.event.type === 'approval_needed'));
    const card = h
      .envelopes(requestId)
      .flatMap((e) => (e.event.type === 'approval_needed' ? [e.event.approval] : []))[0];
    assert.equal(card.tool, 'read_file');
    assert.equal(card.subject, outsideFile);
    assert.match(card.reason ?? '', /outside the workspace/);
    assert.equal(card.alwaysRule, undefined, 'a research run offers no "Always allow"');
    h.controller.approve(card.callId, { decision: answer });
    assert.equal(await running, true);
    await until(() => h.envelopes(requestId).some((e) => e.event.type === 'report'));
    const report = h.envelopes(requestId).flatMap((e) => (e.event.type === 'report' ? [e.event.report] : []))[0];
    const cited = report.sources.map((s) => s.path ?? s.url);
    if (answer === 'deny') {
      assert.deepEqual(cited, ['docs/retries.md']);
      assert.doesNotMatch(JSON.stringify(h.envelopes(requestId)), /thirty seconds/, 'a denied file is never read');
    } else
      assert.ok(
        cited.some((p) => p.endsWith('rfc.md')),
        `the approved file is cited: ${cited.join(', ')}`,
      );
  }
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), 'the state was not reached');
}
