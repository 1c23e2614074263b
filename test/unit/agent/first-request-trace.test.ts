// The first request's steps (core/util/first-request-trace.ts): recorded from its arrival to its request,
// said once, and nothing recorded after that.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  endFirstRequestTrace,
  markFirstRequest,
  startFirstRequestTrace,
} from '../../../extension/core/util/first-request-trace';

test('the first request: each step with the time since the one before, said once; later ones record nothing', () => {
  markFirstRequest('before any request');
  assert.equal(endFirstRequestTrace(), undefined, 'nothing recorded before a request arrives');
  startFirstRequestTrace();
  markFirstRequest('parsed');
  markFirstRequest('system prompt');
  const steps = endFirstRequestTrace();
  assert.match(steps ?? '', /^parsed \d+\.\d, system prompt \d+\.\d$/);
  assert.equal(endFirstRequestTrace(), undefined, 'said once');
  startFirstRequestTrace();
  markFirstRequest('parsed');
  assert.equal(endFirstRequestTrace(), undefined, 'a later request is not recorded');
});
