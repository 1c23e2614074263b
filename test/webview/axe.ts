// axe-core run in a view's page (evaluated over the debugging protocol, which the page's CSP does not
// gate): the violations, each with its first targets and why, for an assertion's message.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  targets: string[];
}

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown; failureSummary?: string }> }>;
}

/** The page's violations; `include`: CSS selectors of the parts to check (default: the whole page). */
export async function axeViolations(page: Page, include?: string[]): Promise<{ violations: AxeViolation[] }> {
  await page.evaluate(axeSource);
  return page.evaluate(async (parts) => {
    const w = window as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResult> } };
    const r = await w.axe.run(parts ? { include: parts.map((p) => [p]) } : document, { resultTypes: ['violations'] });
    return {
      violations: r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        targets: v.nodes.slice(0, 3).map((n) => `${String(n.target)}: ${(n.failureSummary ?? '').slice(0, 200)}`),
      })),
    };
  }, include ?? null);
}
