import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROMPT_HISTORY_SIZE, PromptHistory } from '../../../extension/core/extensions/prompt-history';
import { caretAllows, PromptRecall } from '../../../webview/prompt-recall';

test('the workspace’s prompt history: newest last, repeats moved to the end, capped, bad stored data ignored', () => {
  let stored: unknown = 'garbage';
  const history = new PromptHistory({ read: () => stored, write: (p) => (stored = p) });
  assert.deepEqual(history.list(), []);
  history.add('one');
  history.add('two');
  history.add('two');
  history.add('  ');
  history.add('one');
  assert.deepEqual(history.list(), ['two', 'one']);
  for (let i = 0; i < PROMPT_HISTORY_SIZE + 5; i++) history.add(`p${i}`);
  assert.equal(history.list().length, PROMPT_HISTORY_SIZE);
  assert.equal(history.list().at(-1), `p${PROMPT_HISTORY_SIZE + 4}`);
});

test('recall: Up goes to the newest, then older, stops at the oldest; Down comes back to the draft as left', () => {
  const prompts = ['a', 'b', 'c'];
  const r = new PromptRecall();
  assert.equal(r.down(prompts), undefined, 'Down at the draft does nothing');
  assert.equal(r.up(prompts, 'draft'), 'c');
  assert.equal(r.up(prompts, 'c'), 'b');
  assert.equal(r.up(prompts, 'b'), 'a');
  assert.equal(r.up(prompts, 'a'), undefined, 'nothing older');
  assert.equal(r.down(prompts), 'b');
  assert.equal(r.down(prompts), 'c');
  assert.equal(r.down(prompts), 'draft');
  assert.equal(r.walking, false);
  assert.equal(new PromptRecall().up([], 'x'), undefined);
  r.up(prompts, 'new draft');
  r.reset();
  assert.equal(r.up(prompts, 'edited'), 'c', 'after typing, Up starts from the newest again');
});

test('Up only from the first line, Down only from the last, never with a selection', () => {
  assert.equal(caretAllows('ArrowUp', '', 0, 0), true);
  assert.equal(caretAllows('ArrowUp', 'one\ntwo', 2, 2), true);
  assert.equal(caretAllows('ArrowUp', 'one\ntwo', 5, 5), false);
  assert.equal(caretAllows('ArrowDown', 'one\ntwo', 2, 2), false);
  assert.equal(caretAllows('ArrowDown', 'one\ntwo', 5, 5), true);
  assert.equal(caretAllows('ArrowUp', 'one', 0, 2), false);
});
