import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide, suggestRule, type PermissionCall } from '../../../extension/core/permissions';
import { HOME, WS, WS2 } from '../../fixtures/permission-cases';
import { declaredToolFacts } from '../../../extension/core/tools/registry';

const policy = createPolicy({
  workspaceFolders: [WS, WS2],
  home: HOME,
  tools: declaredToolFacts(),
  user: { deny: ['edit(secret/**)'] },
});
const bash = (command: string): PermissionCall => ({ tool: 'bash', input: { command } });
const write = (file_path: string): PermissionCall => ({ tool: 'write_file', input: { file_path, content: '' } });

test('bash: program and first argument, never a blanket bash', () => {
  const cases: Array<[string, string | undefined]> = [
    ['npm test -- --watch=false', 'bash(npm test*)'],
    ['git status', 'bash(git status*)'],
    ['git status --short', 'bash(git status*)'],
    ['ls', 'bash(ls)'],
    ['./gradlew build --info', 'bash(./gradlew build*)'],
    ['timeout 60 npm test', 'bash(npm test*)'],
    ['CI=1 npm run build', 'bash(npm run build*)'],
    ['python3 -m pytest -q', 'bash(python3 -m pytest*)'],
    // Destructive programs and inline code: only the exact command.
    ['rm -rf build', 'bash(rm -rf build)'],
    ['python3 -c "print(1)"', 'bash(python3 -c print(1))'],
  ];
  for (const [command, expected] of cases) assert.equal(suggestRule(bash(command), policy), expected, command);
});

test('bash: nothing for chained, complex or protected commands', () => {
  for (const command of [
    'npm test && ls',
    'npm test | grep fail',
    'npm test; git status',
    'bash -c "ls"',
    'eval ls',
    '$TOOL build',
    'echo "a; b"',
    'sudo apt update',
    'npm test > /tmp/out.txt',
    'echo x > .git/hooks/pre-commit',
    'cat ~/.ssh/id_rsa',
    'echo ${x:-y}',
    'cat <<EOF | bash\nls\nEOF',
  ]) {
    assert.equal(suggestRule(bash(command), policy), undefined, command);
  }
});

test('writers: the folder glob of the file relative to its workspace folder', () => {
  assert.equal(suggestRule(write('src/utils/a.ts'), policy), 'edit(src/utils/**)');
  assert.equal(suggestRule(write(`${WS2}/lib/x/y.ts`), policy), 'edit(lib/x/**)');
  assert.equal(suggestRule(write('README.md'), policy), 'edit(README.md)', 'a top-level file: that file');
  assert.equal(suggestRule(write('a[1]/b.ts'), policy), 'edit(a\\[1\\]/**)', 'glob characters escaped');
  assert.equal(suggestRule({ tool: 'notebook_edit', input: { notebook_path: 'nb/x.ipynb' } }, policy), 'edit(nb/**)');
});

test('writers: nothing outside the workspace, for protected or denied paths', () => {
  for (const p of ['/tmp/x.txt', `${HOME}/.bashrc`, 'package.json', '.git/config', '.vscode/tasks.json', 'secret/a']) {
    assert.equal(suggestRule(write(p), policy), undefined, p);
  }
});

test('reads, fetches and other tools', () => {
  const read = (file_path: string): PermissionCall => ({ tool: 'read_file', input: { file_path } });
  assert.equal(suggestRule(read(`${HOME}/notes/todo.md`), policy), 'read(~/notes/**)');
  assert.equal(suggestRule({ tool: 'ls', input: { path: '/opt/tools/bin' } }, policy), 'read(/opt/tools/bin/**)');
  assert.equal(suggestRule(read('src/a.ts'), policy), undefined, 'already allowed');
  assert.equal(suggestRule(read(`${HOME}/.ssh/id_rsa`), policy), undefined, 'refused');
  assert.equal(suggestRule(read('/etc/hosts'), policy), undefined, 'a top-level folder is too broad');
  const url = { tool: 'web_fetch', input: { url: 'https://docs.example.com/a?b=1' } };
  assert.equal(suggestRule(url, policy), 'web_fetch(domain:docs.example.com)');
  assert.equal(suggestRule({ tool: 'kill_shell', input: { shell_id: 'bash_1' } }, policy), 'kill_shell');
  assert.equal(suggestRule({ tool: 'todo_write', input: {} }, policy), undefined);
});

test('adding the suggested rule allows the same call next time', () => {
  const calls: PermissionCall[] = [
    bash('npm test -- --watch=false'),
    bash('git status'),
    bash('timeout 60 npm test'),
    bash('rm -rf build'),
    bash('python3 -c "print(1)"'),
    write('src/utils/a.ts'),
    write('README.md'),
    write('a[1]/b.ts'),
    { tool: 'read_file', input: { file_path: `${HOME}/notes/todo.md` } },
    { tool: 'web_fetch', input: { url: 'https://docs.example.com/a' } },
    { tool: 'kill_shell', input: { shell_id: 'bash_1' } },
  ];
  for (const call of calls) {
    assert.notEqual(decide(call, policy).decision, 'allow', `asks before: ${JSON.stringify(call.input)}`);
    const rule = suggestRule(call, policy);
    assert.ok(rule, JSON.stringify(call.input));
    const next = createPolicy({
      workspaceFolders: [WS, WS2],
      home: HOME,
      tools: declaredToolFacts(),
      user: { allow: [rule] },
    });
    assert.deepEqual(next.problems, [], rule);
    const d = decide(call, next);
    assert.equal(d.decision, 'allow', `${rule}: ${JSON.stringify(d)}`);
    assert.equal(d.rule, rule);
  }
});

test('a literal * in a command is escaped in the suggested rule, so the rule stays as narrow', () => {
  const call = bash("npm '*' -v");
  const rule = suggestRule(call, policy);
  assert.equal(rule, 'bash(npm \\**)');
  const next = createPolicy({
    workspaceFolders: [WS],
    home: HOME,
    tools: declaredToolFacts(),
    user: { allow: [rule] },
  });
  assert.equal(decide(call, next).decision, 'allow');
  assert.notEqual(decide(bash('npm install evil'), next).decision, 'allow');
});
