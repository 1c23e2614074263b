// Redaction of streamed output and of a changing set of exact values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLiveRedactor, createRedactor, REDACTED } from '../../../extension/core/security/redact';
import { createStreamRedactor } from '../../../extension/core/security/redact-stream';

const KEY = 'exactValueNoShape-31337-abc';

function stream(chunks: string[], opts = {}) {
  const out: string[] = [];
  const s = createStreamRedactor(createRedactor([KEY]), (t) => out.push(t), opts);
  for (const c of chunks) s.write(c);
  s.flush();
  return out;
}

test('a key cut at any point between two chunks is still redacted', () => {
  const text = `before ${KEY} after\n`;
  for (let cut = 1; cut < text.length; cut++) {
    const joined = stream([text.slice(0, cut), text.slice(cut)]).join('');
    assert.equal(joined, `before ${REDACTED} after\n`, `cut at ${cut}`);
  }
});

test('complete lines pass at once; an unfinished line waits for its end, a flush or the hold time', async () => {
  const out: string[] = [];
  const s = createStreamRedactor(createRedactor([KEY]), (t) => out.push(t), { holdMs: 30 });
  s.write('one\ntw');
  assert.deepEqual(out, ['one\n']);
  s.write('o\r');
  assert.deepEqual(out, ['one\n', 'two\r']);
  s.write('three');
  assert.equal(out.length, 2);
  await new Promise((r) => setTimeout(r, 80));
  assert.deepEqual(out, ['one\n', 'two\r', 'three']);
  s.write('x'.repeat(40));
  s.flush();
  assert.equal(out.at(-1), 'x'.repeat(40));
  s.flush();
  assert.equal(out.length, 4);
});

test('an unfinished line past maxHold is passed on without waiting', () => {
  const out: string[] = [];
  const s = createStreamRedactor(createRedactor(), (t) => out.push(t), { maxHold: 10 });
  s.write('abcdefghijklmnop');
  assert.deepEqual(out, ['abcdefghijklmnop']);
  s.flush();
});

test('a private key block spread over chunks shows none of its lines', () => {
  const out = stream([
    'log line\n-----BEGIN OPENSSH PRIVATE KEY-----\n',
    'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n',
    'AAAAAAABAAAAMwAAAAtzc2gtZWQyNTUx\n-----END OPENSSH PRIVATE KEY-----\nafter\n',
  ]).join('');
  assert.doesNotMatch(out, /b3BlbnNzaC1|AAAAAAABAAAA/);
  assert.equal(out, `log line\n${REDACTED}\nafter\n`);
});

test('a live redactor follows its set: values added or removed later', () => {
  const set = new Set<string>();
  const redact = createLiveRedactor(() => set);
  assert.equal(redact(`x ${KEY}`), `x ${KEY}`);
  set.add(KEY);
  assert.equal(redact(`x ${KEY}`), `x ${REDACTED}`);
  set.delete(KEY);
  set.add('anotherExactValue-0042');
  assert.equal(redact(`x ${KEY} anotherExactValue-0042`), `x ${KEY} ${REDACTED}`);
  // Known shapes, always.
  assert.equal(redact('sk-ant-api03-abcdefghijklmnopqrstu'), REDACTED);
});
