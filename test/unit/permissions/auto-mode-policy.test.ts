// defaultMode auto to the policy itself: it asks exactly what ask mode asks (a reviewer answers some of
// it later, core/agent/auto-review/) — an edit or a redirection inside the workspace is not let through
// as acceptEdits would — and a workspace may tighten it to ask but not loosen it to acceptEdits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';

const base = { workspaceFolders: ['/home/dev/proj'], home: '/home/dev', tools: declaredToolFacts() };

test('auto asks what ask asks: edits and redirections inside the workspace, commands no rule covers', () => {
  const auto = createPolicy({ ...base, user: { defaultMode: 'auto', allow: ['bash(ls*)'] } });
  const ask = createPolicy({ ...base, user: { defaultMode: 'ask', allow: ['bash(ls*)'] } });
  const calls = [
    { tool: 'edit_file', input: { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' } },
    { tool: 'write_file', input: { file_path: 'src/new.ts', content: 'x' } },
    { tool: 'bash', input: { command: 'ls > src/index.ts' } },
    { tool: 'bash', input: { command: 'npm test' } },
  ];
  for (const call of calls) {
    const a = decide(call, auto);
    assert.deepEqual(a, decide(call, ask), JSON.stringify(call));
    assert.equal(a.decision, 'ask', JSON.stringify(call));
    assert.equal(a.source, 'default', JSON.stringify(call));
  }
});

test('a workspace may make auto stricter (ask), not looser (acceptEdits)', () => {
  const tighter = createPolicy({ ...base, user: { defaultMode: 'auto' }, workspace: { defaultMode: 'ask' } });
  assert.equal(tighter.defaultMode, 'ask');
  const looser = createPolicy({ ...base, user: { defaultMode: 'auto' }, workspace: { defaultMode: 'acceptEdits' } });
  assert.equal(looser.defaultMode, 'auto');
  assert.match(looser.problems[0]?.message ?? '', /only make defaultMode stricter/);
});
