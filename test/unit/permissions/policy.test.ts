import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide, type Policy } from '../../../extension/core/permissions';
import { configFor, PERMISSION_CASES, type CaseContext } from '../../fixtures/permission-cases';

const policies = new Map<string, Policy>();
function policyFor(ctx: CaseContext): Policy {
  const key = JSON.stringify(ctx);
  let p = policies.get(key);
  if (!p) {
    p = createPolicy(configFor(ctx));
    policies.set(key, p);
  }
  return p;
}

test('the case table covers at least 100 calls', () => {
  assert.ok(PERMISSION_CASES.length >= 100, `${PERMISSION_CASES.length} cases`);
  const names = new Set(PERMISSION_CASES.map((c) => c.name));
  assert.equal(names.size, PERMISSION_CASES.length, 'case names are unique');
});

for (const c of PERMISSION_CASES) {
  test(`${c.expect.decision}: ${c.name}`, () => {
    const d = decide(c.call, policyFor(c.context));
    const got = JSON.stringify(d);
    assert.equal(d.decision, c.expect.decision, got);
    if (c.expect.source) assert.equal(d.source, c.expect.source, got);
    if (c.expect.rule) assert.equal(d.rule, c.expect.rule, got);
    if (c.expect.reason) assert.match(d.reason, c.expect.reason, got);
    assert.ok(d.reason.length > 10, `a reason is given: ${got}`);
  });
}
