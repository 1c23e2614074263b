import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide, type PermissionCall, type PolicyConfig } from '../../../extension/core/permissions';
import { commandShell, commandShellNote, shellInvocation } from '../../../extension/core/tools/util/command-shell';
import { factsFromAnnotations } from '../../../extension/core/permissions/tool-facts';
import { HOME, WS } from '../../fixtures/permission-cases';
import { declaredToolFacts } from '../../../extension/core/tools/registry';

const base: PolicyConfig = { workspaceFolders: [WS], home: HOME, tools: declaredToolFacts() };

test('malformed rules are reported with a clear message, never thrown, and left out', () => {
  const policy = createPolicy({
    ...base,
    user: {
      allow: [
        'bash(npm test*)',
        'bash(npm test',
        'bash)',
        'bash()',
        '',
        'nosuchtool(x)',
        'bash(x) y',
        42,
        'read(~root/x)',
        'edit(../other/**)',
        'web_fetch(docs.example.com/*)',
        'web_fetch(domain:exa mple.com)',
      ],
    },
  });
  const messages = policy.problems.map((p) => `${p.rule} → ${p.message}`);
  assert.equal(policy.rules.length, 1, messages.join('\n'));
  assert.equal(policy.problems.length, 11, messages.join('\n'));
  const expect: Array<[string, RegExp]> = [
    ['bash(npm test', /never closes/],
    ['bash)', /never opens/],
    ['bash()', /empty pattern: write bash for every call/],
    ['', /empty/],
    ['nosuchtool(x)', /no tool named "nosuchtool" \(known: edit, read, read_file/],
    ['bash(x) y', /never closes|is not Tool or Tool\(pattern\)/],
    ['42', /a rule is a string/],
    ['read(~root/x)', /~user paths are not supported/],
    ['edit(../other/**)', /\.\. is not supported/],
    ['web_fetch(docs.example.com/*)', /starts with a scheme/],
    ['web_fetch(domain:exa mple.com)', /not a host name/],
  ];
  for (const [rule, re] of expect) {
    const p = policy.problems.find((x) => x.rule === rule);
    assert.ok(p, `a problem for ${JSON.stringify(rule)}`);
    assert.match(p.message, re, rule);
    assert.equal(p.list, 'allow');
    assert.equal(p.source, 'user');
  }
});

test('tool names are matched regardless of case; groups cover their tools', () => {
  const policy = createPolicy({ ...base, user: { allow: ['Bash(npm test*)', 'EDIT(src/**)', 'read(/opt/**)'] } });
  assert.deepEqual(policy.problems, []);
  assert.equal(decide({ tool: 'bash', input: { command: 'npm test' } }, policy).decision, 'allow');
  for (const tool of ['write_file', 'edit_file', 'multi_edit']) {
    assert.equal(decide({ tool, input: { file_path: 'src/a.ts' } }, policy).decision, 'allow', tool);
  }
  for (const tool of ['read_file', 'grep', 'glob', 'ls']) {
    const input = tool === 'read_file' ? { file_path: '/opt/x/a.txt' } : { pattern: 'x', path: '/opt/x' };
    assert.equal(decide({ tool, input }, policy).decision, 'allow', tool);
  }
});

test('a workspace may add ask and deny rules only; its allow list is reported as ignored', () => {
  const policy = createPolicy({
    ...base,
    user: { allow: ['bash(git *)'] },
    workspace: { allow: ['bash', 'edit'], ask: ['bash(git push*)'], deny: ['bash(git reset --hard*)'] },
  });
  const ignored = policy.problems.filter((p) => p.source === 'workspace' && p.list === 'allow');
  assert.deepEqual(
    ignored.map((p) => p.rule),
    ['bash', 'edit'],
  );
  assert.match(ignored[0].message, /may only add ask and deny rules.*cannot grant itself permissions/s);
  const bash = (command: string): PermissionCall => ({ tool: 'bash', input: { command } });
  assert.equal(decide(bash('git status'), policy).decision, 'allow');
  assert.equal(decide(bash('git push'), policy).decision, 'ask');
  assert.equal(decide(bash('git reset --hard HEAD~1'), policy).decision, 'deny');
  assert.equal(decide(bash('make'), policy).decision, 'ask', 'the workspace "bash" allow is ignored');
});

test('defaultMode: invalid values and a workspace loosening it are reported; tightening is honoured', () => {
  const bad = createPolicy({ ...base, user: { defaultMode: 'yolo' } });
  assert.equal(bad.defaultMode, 'ask');
  assert.match(bad.problems[0].message, /one of ask, auto, acceptEdits, allow/);
  const loosen = createPolicy({ ...base, user: { defaultMode: 'ask' }, workspace: { defaultMode: 'allow' } });
  assert.equal(loosen.defaultMode, 'ask');
  assert.match(loosen.problems[0].message, /only make defaultMode stricter/);
  const tighten = createPolicy({ ...base, user: { defaultMode: 'allow' }, workspace: { defaultMode: 'acceptEdits' } });
  assert.equal(tighten.defaultMode, 'acceptEdits');
  assert.deepEqual(tighten.problems, []);
});

test('extra write roots: absolute or ~/…; anything else is reported', () => {
  const policy = createPolicy({ ...base, extraWriteRoots: ['/tmp/scratch', '~/sandbox', 'relative/dir', 7] });
  assert.deepEqual(policy.extraWriteRoots, ['/tmp/scratch', `${HOME}/sandbox`]);
  assert.equal(policy.problems.length, 2);
  assert.ok(policy.problems.every((p) => p.list === 'extraWriteRoots'));
});

test('the three default modes side by side', () => {
  const calls: Record<string, PermissionCall> = {
    readInside: { tool: 'read_file', input: { file_path: 'src/a.ts' } },
    readOutside: { tool: 'read_file', input: { file_path: '/opt/notes.txt' } },
    writeInside: { tool: 'write_file', input: { file_path: 'src/a.ts' } },
    writeOutside: { tool: 'write_file', input: { file_path: '/opt/notes.txt' } },
    writeProtected: { tool: 'write_file', input: { file_path: '.vscode/tasks.json' } },
    command: { tool: 'bash', input: { command: 'make build' } },
    deniedCommand: { tool: 'bash', input: { command: 'curl https://x.example' } },
    fetch: { tool: 'web_fetch', input: { url: 'https://x.example' } },
    killShell: { tool: 'kill_shell', input: { shell_id: 'bash_1' } },
  };
  const expected: Record<string, Record<string, string>> = {
    ask: {
      readInside: 'allow',
      readOutside: 'ask',
      writeInside: 'ask',
      writeOutside: 'ask',
      writeProtected: 'ask',
      command: 'ask',
      deniedCommand: 'deny',
      fetch: 'ask',
      killShell: 'ask',
    },
    acceptEdits: {
      readInside: 'allow',
      readOutside: 'ask',
      writeInside: 'allow',
      writeOutside: 'ask',
      writeProtected: 'ask',
      command: 'ask',
      deniedCommand: 'deny',
      fetch: 'ask',
      killShell: 'ask',
    },
    allow: {
      readInside: 'allow',
      readOutside: 'allow',
      writeInside: 'allow',
      writeOutside: 'ask',
      writeProtected: 'ask',
      command: 'allow',
      deniedCommand: 'deny',
      fetch: 'allow',
      killShell: 'allow',
    },
  };
  for (const [mode, row] of Object.entries(expected)) {
    const policy = createPolicy({ ...base, user: { defaultMode: mode, deny: ['bash(curl *)'] } });
    const got = Object.fromEntries(Object.entries(calls).map(([k, c]) => [k, decide(c, policy).decision]));
    assert.deepEqual(got, row, mode);
  }
});

test('calls without the arguments the policy needs ask, with source parse', () => {
  const policy = createPolicy(base);
  assert.equal(decide({ tool: 'bash', input: {} }, policy).source, 'parse');
  assert.equal(decide({ tool: 'write_file', input: { file_path: '' } }, policy).source, 'parse');
  const none = createPolicy({ workspaceFolders: [], home: HOME, tools: declaredToolFacts() });
  const rel = decide({ tool: 'write_file', input: { file_path: 'a.txt' } }, none);
  assert.deepEqual([rel.decision, rel.source], ['ask', 'parse']);
});

test('tools the policy does not know get rules when the caller names their kind', () => {
  const policy = createPolicy({
    ...base,
    tools: [...declaredToolFacts(), factsFromAnnotations('mcp__db__query', { readOnlyHint: true })],
    user: { deny: ['mcp__db__query(DROP*)'] },
  });
  assert.deepEqual(policy.problems, []);
  const call = (query: string): PermissionCall => ({ tool: 'mcp__db__query', input: { query } });
  assert.equal(decide(call('SELECT 1'), policy).decision, 'allow');
  assert.equal(decide(call('DROP TABLE x'), policy).decision, 'deny');
  assert.equal(decide({ tool: 'mcp__other', input: {}, kind: 'execute' }, policy).decision, 'ask');
});

test('Windows without Git Bash: no rule or mode allows a command (PowerShell is not judged); deny still denies', () => {
  const policy = createPolicy({
    ...base,
    commandShell: 'powershell',
    user: { allow: ['bash(npm test*)'], deny: ['bash(rm *)'], defaultMode: 'allow' },
  });
  const d = decide({ tool: 'bash', input: { command: "npm test '& calc & rem '" } }, policy);
  assert.deepEqual([d.decision, d.source], ['ask', 'parse']);
  assert.match(d.reason, /PowerShell/);
  assert.equal(decide({ tool: 'bash', input: { command: 'rm -rf x' } }, policy).decision, 'deny');
  const shell = commandShell('win32', {});
  assert.equal(shell.kind, 'powershell');
  assert.match(commandShellNote(shell), /Windows PowerShell .* every command asks/);
  const [file, args] = shellInvocation(shell, 'Get-ChildItem; npm test', true);
  assert.equal(file, 'powershell.exe');
  assert.deepEqual(args.slice(-2), ['-Command', 'Get-ChildItem; npm test'], 'the command as one argument');
  assert.ok(args.includes('-NoProfile') && args.includes('-NonInteractive'));
  assert.deepEqual(shellInvocation(commandShell('linux'), 'ls', true), ['/bin/bash', ['-c', 'exec 2>&1; ls']]);
  assert.equal(commandShell('linux').kind, 'bash');
});
