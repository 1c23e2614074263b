// Issue 35, items 5 and 11, through the real policy `decide`: a rule's last literal word ends at a
// word boundary (`bash(git status*)` is not `git status-x`, which runs a repository's git alias), and
// writes a narrow rule was never meant to cover — `base64 -o FILE`, a redirection over a workspace
// file, `git branch -D` — or options that run a program (`rg --hostname-bin`) ask.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide, suggestRule, type DefaultMode } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { ISSUE_35_BOUNDARY as BOUNDARY, ISSUE_35_WRITES as WRITES } from '../../fixtures/permission-regressions';

const HOME = '/home/dev';
const WS = '/home/dev/proj';

const policy = (allow: string[], mode?: DefaultMode, deny: string[] = []) =>
  createPolicy({
    user: { allow, deny, defaultMode: mode },
    workspaceFolders: [WS],
    home: HOME,
    tools: declaredToolFacts(),
  });
const bash = (command: string) => ({ tool: 'bash', input: { command } });
const judged = (command: string, p: ReturnType<typeof policy>) => {
  const d = decide(bash(command), p);
  return { decision: d.decision, why: `${command}: ${JSON.stringify(d)}` };
};

for (const [rule, command, expected] of BOUNDARY) {
  test(`issue 35 item 5: ${rule} ${expected === 'allow' ? 'allows' : 'asks for'} \`${command}\``, () => {
    const { decision, why } = judged(command, policy([rule]));
    assert.equal(decision, expected, why);
  });
}

test('issue 35 item 5: a deny or ask rule keeps the plain prefix (catching more is the safe side)', () => {
  const p = policy(['bash(git *)'], 'ask', ['bash(git push*)']);
  assert.equal(judged('git push-x', p).decision, 'deny');
  assert.equal(judged('git pushx origin', p).decision, 'deny');
  assert.equal(judged('git push', p).decision, 'deny');
});

test('issue 35 item 5: a suggested "Always allow" rule still covers the command it was made for', () => {
  const commands = [
    'npm test -- --watch=false',
    'git status',
    'git status --short',
    'git log --oneline',
    'ls -la',
    'npm run test:unit',
    'pytest tests/test_x.py',
    'cargo build --release',
    'node --version',
    'make',
  ];
  for (const command of commands) {
    const rule = suggestRule(bash(command), policy([]));
    assert.ok(rule, `a rule is suggested for ${command}`);
    const { decision, why } = judged(command, policy([rule]));
    assert.equal(decision, 'allow', `${rule} — ${why}`);
  }
});

for (const [rule, command, source] of WRITES) {
  test(`issue 35 item 11: ${rule} asks for \`${command}\``, () => {
    const d = decide(bash(command), policy([rule]));
    assert.equal(d.decision, 'ask', JSON.stringify(d));
    assert.equal(d.source, source, JSON.stringify(d));
  });
}

test('issue 35 item 11: what those rules are for still runs', () => {
  const cases: Array<[string, string]> = [
    ['bash(base64*)', 'base64 -d -i p'],
    ['bash(base64*)', 'base64 -d -i p -o out.bin'],
    ['bash(rg*)', 'rg -n foo src'],
    ['bash(git branch*)', 'git branch'],
    ['bash(git branch*)', 'git branch -a -vv'],
    ['bash(git branch*)', 'git branch --show-current'],
    ['bash(git branch*)', 'git branch feature/x'],
    ['bash(git tag*)', 'git tag -l'],
    ['bash(ls*)', 'ls -la > /dev/null 2>&1'],
    ['bash(ls*)', 'ls 2>&1'],
  ];
  for (const [rule, command] of cases) {
    const { decision, why } = judged(command, policy([rule]));
    assert.equal(decision, 'allow', why);
  }
});

test('issue 35 item 11: a redirection into the workspace is judged as an edit of that file', () => {
  // An edit rule naming the file, or a mode that lets edits run, covers it; nothing else does.
  assert.equal(judged('ls > src/index.ts', policy(['bash(ls*)', 'edit(src/**)'])).decision, 'allow');
  assert.equal(judged('ls > src/index.ts', policy(['bash(ls*)'], 'acceptEdits')).decision, 'allow');
  assert.equal(judged('ls > docs/x.md', policy(['bash(ls*)', 'edit(src/**)'])).decision, 'ask');
  // An edit deny or ask rule reaches the redirection in every mode.
  const denied = createPolicy({
    user: { allow: ['bash(ls*)'], deny: ['edit(src/secret/**)'], defaultMode: 'acceptEdits' },
    workspaceFolders: [WS],
    home: HOME,
    tools: declaredToolFacts(),
  });
  assert.equal(judged('ls > src/secret/k', denied).decision, 'deny');
  // "Always allow" offers no command rule that would not spare the next ask.
  assert.equal(suggestRule(bash('ls > src/index.ts'), policy([])), undefined);
  assert.equal(suggestRule(bash('ls > src/index.ts'), policy([], 'acceptEdits')), 'bash(ls)');
  // Protected files and writes outside the workspace ask as before, whatever the mode.
  assert.equal(decide(bash('ls > .git/hooks/pre-commit'), policy(['bash(ls*)'], 'allow')).source, 'protected');
  assert.equal(decide(bash('ls > /tmp/x'), policy(['bash(ls*)'], 'acceptEdits')).source, 'confinement');
});
