// `/goal`'s arguments as the view and the host read them (extension/protocol/goal.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GOAL_CONDITION_MAX_CHARS, parseGoalArgs } from '../../../extension/protocol';

test('a written condition is judged by the model; --check takes a quoted command or one word', () => {
  assert.deepEqual(parseGoalArgs('all tests in test/auth pass'), {
    kind: 'set',
    goal: { condition: 'all tests in test/auth pass', check: { kind: 'judge' } },
  });
  assert.deepEqual(parseGoalArgs('--check "npm test" fix the login bug'), {
    kind: 'set',
    goal: { condition: 'fix the login bug', check: { kind: 'command', command: 'npm test' } },
  });
  assert.deepEqual(parseGoalArgs("--check 'npx tsc --noEmit'"), {
    kind: 'set',
    goal: {
      condition: '`npx tsc --noEmit` passes (exit code 0)',
      check: { kind: 'command', command: 'npx tsc --noEmit' },
    },
  });
  assert.deepEqual(parseGoalArgs('--check=make build it'), {
    kind: 'set',
    goal: { condition: 'build it', check: { kind: 'command', command: 'make' } },
  });
});

test('clear and its aliases end the goal; bad input says how to write it', () => {
  for (const w of ['clear', 'STOP', 'off', 'cancel']) assert.deepEqual(parseGoalArgs(w), { kind: 'clear' });
  for (const bad of ['', '   ', '--check', '--check ""', '--until done'])
    assert.equal(parseGoalArgs(bad).kind, 'refused', bad);
  assert.match((parseGoalArgs('') as { message: string }).message, /Usage: \/goal <condition>/);
  assert.equal(parseGoalArgs('x'.repeat(GOAL_CONDITION_MAX_CHARS + 1)).kind, 'refused');
});
