// Accessibility of the chat view in real Chromium, checked by axe-core (WCAG 2.x A/AA rules and axe's
// best practices) in every state a user meets: a streamed Markdown answer with highlighted code, Agent
// mode's tool cards and an approval card, a plan card, a research report, History. No serious or
// critical violation, and none of the landmark/heading rules; each run prints how many rules ran.
// Then: every control can be reached with Tab and shows where the focus is; the live region says
// when an answer is done and when an approval waits.
import { afterEach, beforeEach, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, snapshot, snapshotMessage } from './fixtures';
import { SCENES, agentScene } from './scenes';

const env = useViewEnvironment();
let view: ViewHarness;
const axeSource = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

beforeEach(async () => {
  view = await env.open();
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

interface AxeSummary {
  version: string;
  rulesRun: number;
  violations: Array<{ id: string; impact: string | null; nodes: number; help: string; targets: string[] }>;
}

/** Runs axe-core in the page (evaluated over the debugging protocol, which the page's CSP does not gate). */
async function axe(page: Page): Promise<AxeSummary> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const a = (window as unknown as { axe: AxeLike }).axe;
    const r = await a.run(document, { resultTypes: ['violations'] });
    const ran = new Set([...r.passes, ...r.violations, ...r.incomplete].map((x) => x.id));
    return {
      version: a.version,
      rulesRun: ran.size,
      violations: r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        nodes: v.nodes.length,
        help: v.help,
        targets: v.nodes.slice(0, 3).map((n) => `${String(n.target)}: ${(n.failureSummary ?? '').slice(0, 200)}`),
      })),
    };
  });
}
interface AxeLike {
  version: string;
  run(
    ctx: Document,
    options: unknown,
  ): Promise<
    Record<
      'passes' | 'violations' | 'incomplete',
      Array<{
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: unknown; failureSummary?: string }>;
      }>
    >
  >;
}

function report(t: TestContext, scene: string, s: AxeSummary): void {
  const byImpact = (i: string) => s.violations.filter((v) => v.impact === i).length;
  t.diagnostic(
    `axe-core ${s.version} on ${scene}: ${s.rulesRun} rules run, ${s.violations.length} violated ` +
      `(critical ${byImpact('critical')}, serious ${byImpact('serious')}, moderate ${byImpact('moderate')}, ` +
      `minor ${byImpact('minor')})${s.violations.map((v) => `; ${v.id} (${v.impact}, ${v.nodes} nodes)`).join('')}`,
  );
}

const STRUCTURE_RULES = new Set(['region', 'landmark-one-main', 'page-has-heading-one']);

describe('accessibility (axe-core)', () => {
  for (const [name, play] of Object.entries(SCENES)) {
    it(`${name}: no serious or critical violations, content in landmarks under a heading`, async (t) => {
      await play(view);
      const result = await axe(view.page);
      report(t, name, result);
      const blocking = result.violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical' || STRUCTURE_RULES.has(v.id),
      );
      assert.deepEqual(blocking, []);
      assert.ok(result.rulesRun >= 20, `only ${result.rulesRun} rules ran`);
    });
  }
});

/** The focused element, through shadow roots, described by role-ish name. */
async function focused(page: Page): Promise<{ label: string; outline: string } | undefined> {
  return page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body) return undefined;
    const host = (el.getRootNode() as ShadowRoot).host ?? el;
    const label =
      host.getAttribute('aria-label') ||
      el.getAttribute('aria-label') ||
      (host.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40) ||
      host.tagName.toLowerCase();
    // A visible focus: an outline or a focus ring drawn with box-shadow, on the element or its host.
    const ring = (e: Element) => {
      const s = getComputedStyle(e);
      const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0;
      return outline ? `outline ${s.outlineWidth} ${s.outlineStyle}` : s.boxShadow !== 'none' ? 'box-shadow' : '';
    };
    return { label, outline: ring(el) || ring(host) };
  });
}

describe('keyboard and screen readers', () => {
  it('every control of an Agent turn with an approval is reached by Tab and shows its focus', async () => {
    await agentScene(view);
    const seen = new Map<string, string>();
    await view.page.locator('body').click({ position: { x: 2, y: 2 } });
    for (let i = 0; i < 60; i++) {
      await view.page.keyboard.press('Tab');
      const f = await focused(view.page);
      if (f) seen.set(f.label, f.outline);
    }
    const labels = [...seen.keys()];
    const expected = ['Message', 'Send', 'Approve', 'Deny', 'Always allow', 'Open diff', 'Full result', 'History'];
    for (const e of expected)
      assert.ok(
        labels.some((l) => l === e || l.startsWith(e)),
        `${e} not reached by Tab; reached: ${labels.join(' | ')}`,
      );
    const invisible = [...seen].filter(([, outline]) => !outline).map(([l]) => l);
    assert.deepEqual(invisible, [], 'focused without a visible focus indicator');
  });

  it('the live region announces the end of an answer and an approval that waits', async () => {
    await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
    const status = view.page.locator('sx-announcer [role="status"][aria-live="polite"]');
    const r = new RequestScript('r-live');
    await deliver(view, r.events(r.started('hi', 'agent'), { type: 'text_delta', text: 'Hello' }));
    assert.equal((await status.textContent())?.trim(), '');
    await deliver(
      view,
      r.events({
        type: 'approval_needed',
        approval: { callId: 'b1', tool: 'bash', kind: 'execute', subject: 'npm test', detail: 'npm test' },
      }),
    );
    assert.equal((await status.textContent())?.trim(), 'Approval needed: bash npm test');
    await deliver(view, r.events({ type: 'approval_resolved', callId: 'b1' }, { type: 'complete' }));
    assert.equal((await status.textContent())?.trim(), 'Answer complete');
  });
});
