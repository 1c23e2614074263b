// Research mode in real Chromium: the "Research progress" bar while a run streams, the draft replaced
// by the verified report card (its "Sources" list, notes, flagged claims, Export), and the research
// kind of plan card.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PlanArtifact } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { REPORT, RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;
let r: RequestScript;

const report = REPORT;

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ mode: 'research' })));
  r = new RequestScript('r-research');
  await deliver(view, r.events(r.started('What changed in the Rust 2024 edition?', 'research')));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

describe('research', () => {
  it('shows a "Research progress" bar that follows the run, then the report replaces the draft', async () => {
    const progress = (phase: 'searching' | 'writing', searchesDone: number) =>
      r.events({
        type: 'research_progress',
        progress: { phase, searchesDone, searchesPlanned: 4, sourcesRead: searchesDone * 2, detail: 'rust 2024' },
      });
    await deliver(view, progress('searching', 1));
    const bar = view.page.getByRole('progressbar', { name: 'Research progress' });
    await bar.waitFor();
    const at1 = Number(await bar.getAttribute('aria-valuenow'));
    assert.match((await bar.getAttribute('aria-valuetext')) ?? '', /Searching — 1\/4 searches · 2 sources read/);
    await deliver(view, progress('searching', 3));
    const at3 = Number(await bar.getAttribute('aria-valuenow'));
    assert.ok(at3 > at1, `${at3} > ${at1}`);
    await deliver(view, progress('writing', 4));
    await deliver(view, r.events({ type: 'text_delta', text: 'DRAFT-TEXT being written' }));
    await view.page.getByText('DRAFT-TEXT being written').waitFor();
    await deliver(view, r.events({ type: 'report', report }, { type: 'complete' }));
    const card = view.page.getByRole('region', { name: 'Report' });
    await card.getByText('1 of 2 claims verified').waitFor();
    assert.equal(await view.page.getByText('DRAFT-TEXT being written').count(), 0, 'the draft is replaced');
    assert.equal(await bar.count(), 0, 'no progress bar once the run is done');
    const sources = card.getByRole('list', { name: 'Sources' });
    const items = sources.getByRole('listitem');
    assert.equal(await items.count(), 2);
    assert.match((await items.nth(1).textContent()) ?? '', /Survey\s*· c\.example · accessed 2026-11-23/);
    // The Markdown's own Sources section is drawn once, as the list.
    assert.equal(await card.getByText('The Rust 2024 edition', { exact: true }).count(), 1);
    await card.getByText('(not supported by the cited source)').waitFor();
  });

  it('source links open through the host; Export posts exportReport; flagged claims are listed', async () => {
    await deliver(view, r.events({ type: 'report', report }, { type: 'complete' }));
    const card = view.page.getByRole('region', { name: 'Report' });
    await card.getByRole('link', { name: 'Survey' }).click();
    assert.deepEqual(await view.waitForPost('openLink'), { type: 'openLink', url: 'https://c.example/survey' });
    await card.getByRole('button', { name: 'Export report…' }).click();
    assert.deepEqual(await view.waitForPost('exportReport'), { type: 'exportReport', reportId: 'report-1' });
    await card.getByText(/Verification and notes \(2 searches, 2 pages read\)/).click();
    await card.getByText(/It reached 60% of users\. — the cited page does not contain 60/).waitFor();
  });

  it('the card shows its title once, wherever the writer put the heading; a partial report says why', async () => {
    const shapes = [
      '# What changed in Rust 2024\n## Summary\nThe edition shipped with Rust 1.85 [1].',
      'Here is the report you asked for.\n\n# What changed in **Rust 2024** #\n\nThe edition shipped [1].',
      '**What changed in Rust 2024**\n\nThe edition shipped with Rust 1.85 [1].',
      'What changed in Rust 2024\n=========================\nThe edition shipped with Rust 1.85 [1].',
    ];
    for (const [i, markdown] of shapes.entries()) {
      const id = `report-shape-${i}`;
      const q = new RequestScript(`r-shape-${i}`);
      await deliver(view, q.events(q.started('Rust?', 'research')));
      const partial =
        i === 1
          ? { reason: 'stopped' as const, detail: 'Stopped by you after 2 searches and 1 pages read in 9 s.' }
          : undefined;
      await deliver(
        view,
        q.events(
          { type: 'report', report: { ...report, id, markdown, ...(partial ? { partial } : {}) } },
          { type: 'complete' },
        ),
      );
      const card = view.page.getByRole('region', { name: 'Report' }).nth(i);
      await card.getByText('1 of 2 claims verified').waitFor();
      assert.equal(await card.getByText('What changed in Rust 2024', { exact: true }).count(), 1, markdown);
      assert.equal(await card.getByText(/What changed in/).count(), 1, markdown);
      await card.getByText('The edition shipped', { exact: false }).waitFor();
      if (partial) {
        await card.getByText('Partial', { exact: true }).waitFor();
        await card
          .getByRole('note')
          .getByText(/Partial report\. Stopped by you after 2 searches/)
          .waitFor();
      } else assert.equal(await card.getByText('Partial', { exact: true }).count(), 0);
    }
  });

  it('a research plan card shows the question, sub-questions and searches, with the plan buttons', async () => {
    const plan: PlanArtifact = {
      kind: 'research',
      id: 'plan-r',
      status: 'proposed',
      question: 'What changed in the Rust 2024 edition?',
      subQuestions: ['When was it released?', 'What changed?'],
      queries: [{ query: 'rust 2024 edition', provider: 'tavily' }, { query: 'rust 1.85 release notes' }],
      expectedOutput: 'A short cited report.',
    };
    await deliver(view, r.events({ type: 'plan_proposed', plan }, { type: 'complete' }));
    const card = view.page.getByRole('region', { name: 'Plan' });
    await card.getByText('Research plan').waitFor();
    await card.getByText('When was it released?').waitFor();
    await card.getByText('rust 2024 edition', { exact: true }).waitFor();
    await card.getByText('A short cited report.').waitFor();
    await card.getByRole('button', { name: 'Approve plan' }).click();
    assert.equal((await view.waitForPost('approvePlan')).planId, 'plan-r');
  });
});

describe('research reach', () => {
  it('offers a "Research scope" radio group in Research mode and posts the choice', async () => {
    await deliver(view, snapshotMessage({ ...snapshot({ mode: 'research' }), researchScope: 'web' }));
    const group = view.page.getByRole('radiogroup', { name: 'Research scope' });
    await group.waitFor();
    assert.equal(await group.getByRole('radio', { name: 'Web' }).isChecked(), true);
    await group.getByRole('radio', { name: 'Workspace' }).check();
    assert.deepEqual(await view.waitForPost('setResearchScope'), { type: 'setResearchScope', scope: 'workspace' });
    // The host keeps the choice and says so in its next snapshot.
    await deliver(view, snapshotMessage({ ...snapshot({ mode: 'research' }), researchScope: 'workspace' }));
    assert.equal(await group.getByRole('radio', { name: 'Workspace' }).isChecked(), true);
    // Not offered outside Research mode.
    await deliver(view, snapshotMessage({ ...snapshot({ mode: 'agent' }), researchScope: 'workspace' }));
    assert.equal(await view.page.getByRole('radiogroup', { name: 'Research scope' }).count(), 0);
  });

  it('a workspace citation opens its file at the cited lines, from the text and from the Sources list', async () => {
    const ws: typeof report = {
      ...report,
      id: 'report-ws',
      markdown: '# Retries\n\nOur client retries three times [1]. Backoff doubles [2].\n\n## Sources\n\n1. x\n2. y',
      sources: [
        {
          n: 1,
          url: 'docs/retries.md#L3-L8',
          title: 'docs/retries.md',
          accessedAt: 0,
          path: 'docs/retries.md',
          lines: { start: 3, end: 8 },
        },
        { n: 2, url: 'https://a.example/backoff', title: 'Backoff', accessedAt: 0 },
      ],
      scope: 'both',
      filters: { excludeDomains: ['b.example'] },
    };
    await deliver(view, r.events({ type: 'report', report: ws }, { type: 'complete' }));
    const card = view.page.getByRole('region', { name: 'Report' });
    await card.getByText('Scope: Both · Exclude domains: b.example').waitFor();
    await card.getByRole('link', { name: '[1]' }).click();
    assert.deepEqual(await view.waitForPost('openSource'), {
      type: 'openSource',
      path: 'docs/retries.md',
      start: 3,
      end: 8,
    });
    await card.getByRole('list', { name: 'Sources' }).getByRole('link', { name: 'docs/retries.md:3–8' }).click();
    assert.deepEqual(await view.waitForPost('openSource'), {
      type: 'openSource',
      path: 'docs/retries.md',
      start: 3,
      end: 8,
    });
    // A web page's marker stays text.
    assert.equal(await card.getByRole('link', { name: '[2]' }).count(), 0);
  });

  it('the progress view shows each sub-researcher', async () => {
    await deliver(
      view,
      r.events({
        type: 'research_progress',
        progress: {
          phase: 'searching',
          searchesDone: 2,
          searchesPlanned: 4,
          sourcesRead: 3,
          branches: [
            { question: 'Backoff?', status: 'reading', searches: 1, sources: 2 },
            { question: 'Jitter?', status: 'searching', searches: 1, sources: 1 },
          ],
        },
      }),
    );
    const list = view.page.getByRole('list', { name: 'Sub-researchers' });
    await list.waitFor();
    assert.equal(await list.getByRole('listitem').count(), 2);
    assert.match((await list.getByRole('listitem').first().textContent()) ?? '', /reading\s*Backoff\?/);
  });
});
