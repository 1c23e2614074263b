// A turn hands one abort signal to all of its model calls. The SDKs add a listener to the signal of
// every request and never remove it: without a child signal per request they piled up over a long run.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { requestSignal } from '../../../extension/core/providers/request-signal';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { collect, KINDS, request } from './harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm();
});
after(() => fake.close());
beforeEach(() => fake.reset());

for (const k of KINDS) {
  test(`${k.kind}: 25 requests on one turn signal leave no listener on it, and Stop still ends a stream`, async () => {
    const provider = k.make(fake);
    const turn = new AbortController();
    for (let i = 0; i < 25; i++) {
      fake.enqueue({ text: `answer ${i}` });
      const got = await collect(provider.stream(request(`q${i}`), turn.signal));
      assert.equal(got.text, `answer ${i}`);
    }
    assert.equal(getEventListeners(turn.signal, 'abort').length, 0);

    fake.enqueue({ text: 'a long answer that is stopped '.repeat(50), chunkDelayMs: 20 });
    const got = await collect(provider.stream(request('long'), turn.signal), (e) => {
      if (e.type === 'text') turn.abort();
    });
    assert.equal(got.error?.code, 'aborted');
    assert.ok(got.text.length < 'a long answer that is stopped '.repeat(50).length);
  });
}

test('a child of an aborted signal starts aborted; release detaches it', () => {
  const outer = new AbortController();
  const a = requestSignal(outer.signal);
  assert.equal(getEventListeners(outer.signal, 'abort').length, 1);
  a.release();
  assert.equal(getEventListeners(outer.signal, 'abort').length, 0);
  outer.abort(new Error('stop'));
  assert.equal(a.signal.aborted, false, 'released: it no longer follows');
  const b = requestSignal(outer.signal);
  assert.equal(b.signal.aborted, true);
  assert.equal((b.signal.reason as Error).message, 'stop');
});
