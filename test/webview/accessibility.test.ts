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
import { SCENES } from './scenes';

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

describe('accessibility of @ references and the context meter (axe-core)', () => {
  it('the @ listbox open over chips, with the meter in the header: no serious or critical violations', async (t) => {
    await deliver(view, snapshotMessage(snapshot()));
    await deliver(view, {
      type: 'contextUsage',
      breakdown: {
        model: 'fake/model',
        window: 128_000,
        compactAt: 102_400,
        total: 20_000,
        parts: [{ name: 'conversation', tokens: 20_000 }],
      },
    });
    const box = view.page.getByRole('textbox', { name: 'Message' });
    await box.fill('@');
    await view.page.getByRole('option', { name: /@selection/ }).waitFor();
    await box.press('Enter');
    await box.fill('Explain @sr');
    await deliver(view, {
      type: 'referenceCandidates',
      query: 'sr',
      items: [{ kind: 'folder', value: 'src', label: '@src/', detail: 'folder' }],
    });
    await view.page.getByRole('option', { name: /@src\// }).waitFor();
    await view.page.getByRole('meter', { name: 'Context' }).waitFor();
    const result = await axe(view.page);
    report(t, 'references', result);
    const blocking = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(blocking, []);
  });
});

/** Marks, from now on, every element that takes the focus, with whether its focus was visible. */
async function watchFocus(page: Page): Promise<void> {
  await page.evaluate(() => {
    // A visible focus: an outline, or a ring drawn with box-shadow, on the element or a shadow host.
    const ring = (e: Element): boolean => {
      const s = getComputedStyle(e);
      return (s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    };
    document.addEventListener(
      'focusin',
      (e) => {
        const path = e.composedPath().filter((n): n is HTMLElement => n instanceof HTMLElement);
        const visible = path.slice(0, 3).some(ring);
        const w = window as unknown as { __focusOrder?: string[] };
        w.__focusOrder = [
          ...(w.__focusOrder ?? []),
          `${path[0]?.tagName} ${(path[0]?.textContent ?? '').trim().slice(0, 20)}`,
        ];
        for (const el of path) if (!el.dataset.focusSeen || visible) el.dataset.focusSeen = visible ? 'ring' : 'none';
      },
      true,
    );
  });
}

/** Every control a user could operate that Tab never reached, or reached without a visible focus. */
async function unreachedControls(page: Page): Promise<{ unreached: string[]; noRing: string[] }> {
  return page.evaluate(() => {
    const selector = [
      'button',
      'a[href]',
      'input:not([type="hidden"])',
      'textarea',
      'select',
      'summary',
      'vscode-button',
      'vscode-single-select',
      'vscode-checkbox',
      '[tabindex]:not([tabindex="-1"])',
    ].join(',');
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30)}"`;
    const candidates = [...document.querySelectorAll<HTMLElement>(selector)].filter((el) => {
      if (el.closest('[hidden], [inert]') || (el as HTMLButtonElement).disabled || el.hasAttribute('disabled'))
        return false;
      if (!el.getClientRects().length) return false; // not rendered (a hidden view)
      const details = el.closest('details');
      if (details && !details.open && !el.closest('summary')) return false; // folded away until opened
      // Inside a vscode-element's own shadow tree, or an unchecked radio of a group: not a Tab stop of its own.
      if (el instanceof HTMLInputElement && el.type === 'radio' && !el.checked) return false;
      return true;
    });
    return {
      unreached: candidates.filter((el) => !el.dataset.focusSeen).map(name),
      noRing: candidates.filter((el) => el.dataset.focusSeen === 'none').map(name),
    };
  });
}

describe('keyboard and screen readers', () => {
  for (const [scene, play] of Object.entries(SCENES)) {
    it(`${scene}: every control is reached by Tab and shows where the focus is`, async () => {
      await play(view);
      await watchFocus(view.page);
      await view.page.locator('body').click({ position: { x: 2, y: 2 } });
      const stops = await view.page.evaluate(
        () => document.querySelectorAll('button, a[href], input, textarea, select, summary, [tabindex]').length,
      );
      for (let i = 0; i < stops + 5; i++) await view.page.keyboard.press('Tab');
      const { unreached, noRing } = await unreachedControls(view.page);
      const order = await view.page.evaluate(() => (window as unknown as { __focusOrder?: string[] }).__focusOrder);
      assert.deepEqual(unreached, [], `controls Tab never reached; the focus went: ${order?.join(' → ')}`);
      assert.deepEqual(noRing, [], 'controls focused without a visible focus indicator');
    });
  }

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
