import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedactor, redactDeep, REDACTED } from '../../../extension/core/security/redact';
import { generateTitle } from '../../../extension/core/session-title';

test('redaction: known key shapes, bearer tokens, AWS keys, private key blocks and exact values', () => {
  const cases: Array<[string, string]> = [
    ['key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx12 end', `key ${REDACTED} end`],
    ['sk-or-v1-0123456789abcdef0123456789abcdef', REDACTED],
    ['AKIAIOSFODNN7EXAMPLE', REDACTED],
    ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', `aws_secret_access_key = ${REDACTED}`],
    ['Authorization: Bearer eyJhbGciOi.J9abcdefghijk', `Authorization: Bearer ${REDACTED}`],
    ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----', REDACTED],
    ['-----BEGIN PRIVATE KEY-----\ncut off mid-way', REDACTED],
    ['{"apiKey": "abcd1234efgh"}', `{"apiKey": "${REDACTED}"}`],
  ];
  const patterns = createRedactor();
  for (const [input, want] of cases) assert.equal(patterns(input), want, input);
  const r = createRedactor(['my.custom+secret/value']);
  assert.equal(r('x my.custom+secret/value y'), `x ${REDACTED} y`, 'regex characters in exact values are literal');
  assert.equal(r(encodeURIComponent('my.custom+secret/value')), REDACTED, 'URL-encoded form');
  assert.equal(patterns('the sky is blue, task-force and skipped'), 'the sky is blue, task-force and skipped');
  assert.equal(createRedactor([], { assignments: false })('password = getPassword()'), 'password = getPassword()');
  assert.deepEqual(redactDeep({ a: ['sk-ant-api03-abcdefghijklmnopqrstu'], n: 1 }, createRedactor()), {
    a: [REDACTED],
    n: 1,
  });
});

test('titles come from the first meaningful line of the first message (a heuristic)', () => {
  assert.equal(generateTitle('how do I configure eslint for a monorepo?'), 'How do I configure eslint for a monorepo?');
  assert.equal(
    generateTitle('```ts\nconst x = 1\n```\nwhy is x not reactive in my vue component'),
    'Why is x not reactive in my vue component',
  );
  assert.equal(
    generateTitle(
      '@src/app.ts please refactor the routing module into smaller files and add tests for each route handler',
    ),
    'Please refactor the routing module into smaller files and…',
  );
  assert.equal(
    generateTitle('hi', 'Hello! How can I help you with your project today?'),
    'Hello! How can I help you with your project today?',
  );
  assert.equal(generateTitle('', ''), 'New chat');
  assert.ok(generateTitle('x'.repeat(300)).length <= 61);
});
