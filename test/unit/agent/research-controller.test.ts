// Research through the session controller: Research mode is offered only with a research host; Plan
// Research proposes the research kind of plan; Approve plan runs the researcher on that plan (its
// queries, no second planning call); the report is journaled as a message part and as an artifact
// with its citations, and the model history gets the question and the verified report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import type { ResearchHost } from '../../../extension/core/research/host';
import { DEFAULT_LIMITS } from '../../../extension/core/research/loop/research-run';
import type { PlanArtifact } from '../../../extension/protocol';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
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
