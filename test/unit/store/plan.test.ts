// Plans are part of a session's events: the store keeps the card (and its status) across a reopen,
// and the exports render it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PlanArtifact } from '../../../extension/protocol';
import { created, events, open, RequestBuilder, tempDir } from './helpers';

const plan: PlanArtifact = {
  kind: 'change',
  id: 'plan-1',
  status: 'proposed',
  goal: 'Add a --verbose flag to the CLI',
  steps: [{ title: 'Parse the flag', detail: 'In src/cli.ts, next to --help.' }, { title: 'Log each step' }],
  files: [{ path: 'src/cli.ts', change: 'Accept --verbose.' }],
  risks: ['Scripts passing unknown flags'],
  verify: ['npm test', 'Run `cli --verbose build` by hand'],
};

test('a plan card and its later status survive a reopen, and every export renders it', async () => {
  const { dir, cleanup } = tempDir('plan');
  try {
    let store = await open(dir);
    store.append(created('s', 1, 'Verbose flag'));
    const r = new RequestBuilder('r1', 2);
    store.append(
      events('s', 2, [
        r.env({
          type: 'started',
          userMessageId: 'u1',
          assistantMessageId: 'a1',
          text: 'Plan a verbose flag',
          mode: 'plan',
          model: 'fake/model',
        }),
        r.env({ type: 'plan_proposed', plan }),
        r.env({ type: 'complete' }),
      ]),
    );
    // The status arrives later, on a request of its own.
    store.append(
      events('s', 3, [
        { requestId: 'plan-x', seq: 1, ts: 3, event: { type: 'plan_status', planId: 'plan-1', status: 'rejected' } },
      ]),
    );
    await store.close();
    store = await open(dir);
    const s = store.getSession('s');
    const part = s?.messages[1].parts[0];
    assert.ok(part && part.type === 'plan');
    assert.deepEqual(part.plan, { ...plan, status: 'rejected' });

    const md = store.exportSession('s', 'markdown')!;
    assert.match(md, /### Plan \(rejected\)/);
    assert.match(md, /#### Goal\n\nAdd a --verbose flag to the CLI/);
    assert.match(md, /1\. Parse the flag\n {3}In src\/cli\.ts, next to --help\.\n2\. Log each step/);
    assert.match(md, /#### Files\n\n- `src\/cli\.ts` — Accept --verbose\./);
    assert.match(md, /#### Risks\n\n- Scripts passing unknown flags/);
    assert.match(md, /#### Verification\n\n- npm test\n- Run `cli --verbose build` by hand/);
    const html = store.exportSession('s', 'html')!;
    assert.match(html, /<section class="plan" aria-label="Plan">/);
    assert.match(html, /<li>Parse the flag/);
    const json = store.exportSession('s', 'json')!;
    assert.match(json, /"plan-1"/);
    await store.close();
  } finally {
    cleanup();
  }
});
