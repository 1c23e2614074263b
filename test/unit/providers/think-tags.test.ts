// Reasoning inlined as <think>…</think> in OpenAI-compatible answers is split out, even when the
// tags are cut across chunks; answers that do not start with the tag are left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ThinkTagSplitter, type ThinkPiece } from '../../../extension/core/providers/think-tags';
import { startFakeLlm } from '../../fixtures/fake-llm';
import { collect, KINDS, request } from './harness';

function split(chunks: string[]): { thinking: string; text: string } {
  const s = new ThinkTagSplitter();
  const pieces: ThinkPiece[] = [...chunks.flatMap((c) => s.push(c)), ...s.flush()];
  return {
    thinking: pieces
      .filter((p) => p.type === 'thinking')
      .map((p) => p.text)
      .join(''),
    text: pieces
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join(''),
  };
}

test('splits a leading think block, whatever the chunk boundaries', () => {
  const whole = '<think>plan: add 2+2</think>\n\nThe answer is 4.';
  for (let size = 1; size <= whole.length; size++) {
    const chunks: string[] = [];
    for (let i = 0; i < whole.length; i += size) chunks.push(whole.slice(i, i + size));
    assert.deepEqual(split(chunks), { thinking: 'plan: add 2+2', text: 'The answer is 4.' }, `chunk size ${size}`);
  }
});

test('leaves answers alone that do not start with the tag', () => {
  assert.deepEqual(split(['Use ', '<think>', ' tags like this']), { thinking: '', text: 'Use <think> tags like this' });
  assert.deepEqual(split(['<thin', 'g>']), { thinking: '', text: '<thing>' });
  assert.deepEqual(split(['  ']), { thinking: '', text: '  ' });
});

test('an unterminated think block stays thinking', () => {
  assert.deepEqual(split(['<think>still going', ' </thi']), { thinking: 'still going </thi', text: '' });
});

test('the openai provider splits inline think tags from a real stream', async () => {
  const fake = await startFakeLlm();
  try {
    fake.enqueue({ text: ['<thi', 'nk>Reason', 'ing here</th', 'ink>\n\nFinal', ' answer.'] });
    const kind = KINDS.find((k) => k.kind === 'openai');
    assert.ok(kind);
    const r = await collect(kind.make(fake).stream(request(), new AbortController().signal));
    assert.equal(r.thinking, 'Reasoning here');
    assert.equal(r.text, 'Final answer.');
  } finally {
    await fake.close();
  }
});
