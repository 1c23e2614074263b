// Words bash only knows when it runs the command — `$x`, `*`, `?`, `[…]`, `{a,b}` — against the
// rules. The policy reads the text as written; bash runs the expansion. Before this, `git {push,}`
// slipped past `deny: bash(git push*)` under `allow: bash(git *)`, and `git log *` in a folder
// holding a file named `--output=x` ran `git log --output=x` under `bash(git log*)`. Each marker case
// is run for real: through the gate and the bash tool it must not create the marker, and without the
// policy bash does create it (so the case proves something).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { judgeCall } from '../../../extension/core/agent/permission-gate';
import { createPolicy } from '../../../extension/core/permissions';
import { mayMatch, ruleTokens } from '../../../extension/core/permissions/policy/may-match';
import { SLOT } from '../../../extension/core/permissions/shell/run-time-words';
import { boxJudgement } from '../../../extension/core/sandbox/command-gate';
import { bashTool } from '../../../extension/core/tools/bash';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { createNodePorts, makeContext, makeTempWorkspace } from '../../fixtures/node-ports';

const posix = process.platform !== 'win32';

function policyFor(root: string, allow: string[], deny: string[] = [], ask: string[] = []) {
  return createPolicy({
    user: { allow, deny, ask },
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
}

async function judge(root: string, policy: ReturnType<typeof policyFor>, command: string) {
  const gate = { policy: () => policy, rememberRule: async () => {} };
  const ports = createNodePorts({ root });
  return judgeCall(gate, { tool: 'bash', kind: 'execute', input: { command } }, ports.workspace);
}

test('a rule pattern and a command shape with open slots: may they meet?', () => {
  const cases: Array<[string, string, boolean]> = [
    ['git push*', `git ${SLOT} origin`, true],
    ['git push*', `git add ${SLOT}`, false],
    ['git push*', `${SLOT}`, true],
    ['git push*', `${SLOT} push`, true],
    ['git push*', `gi${SLOT}`, true],
    ['git push', `git ${SLOT} x`, false],
    ['npm publish*', `npm ${SLOT} -v`, true],
    ['rm -rf /', `rm ${SLOT}`, true],
    ['rm -rf /', `rm -rf ${SLOT}/x`, false],
    ['git \\* x', `git ${SLOT} x`, true],
    ['a*b*c', `${SLOT}x${SLOT}`, true],
    ['a*b*c', `x${SLOT}`, false],
    ['curl *example.com*', `curl ${SLOT}`, true],
  ];
  for (const [rule, shape, expected] of cases)
    assert.equal(mayMatch(ruleTokens(rule), shape), expected, `${rule} vs ${shape.replaceAll(SLOT, '<slot>')}`);
});

test('deny and ask rules catch what a run-time word may become; literal commands judged as before', async () => {
  const root = await makeTempWorkspace({ push: '', '--output=x': '' });
  const policy = policyFor(
    root,
    ['bash(git *)', 'bash(npm *)', 'bash(ls*)', 'bash(cat *)'],
    ['bash(git push*)'],
    ['bash(npm publish*)'],
  );
  const expect: Array<[string, 'allow' | 'ask' | 'deny']> = [
    ['git push', 'deny'],
    ['git {push,} origin', 'ask'],
    ['git pus? origin', 'ask'],
    ['git pu[s]h origin', 'ask'],
    ['git p* origin', 'ask'],
    ['git $x origin', 'ask'],
    ['$x push', 'ask'],
    ['eval "$y"', 'ask'],
    ['timeout 5 git {push,}', 'ask'],
    ['npm {publish,}', 'ask'],
    ['npm publis?', 'ask'],
    // Still allowed: the run-time word cannot make them what a deny or ask rule names.
    ['git add src/*.ts', 'allow'],
    ['git commit -m "$msg"', 'allow'],
    ['git log --format=%H -- "$f"', 'allow'],
    ['git log -- *', 'allow'],
    ['ls *.ts', 'allow'],
    ['cat *', 'allow'],
    ['git status', 'allow'],
  ];
  for (const [command, decision] of expect) {
    const j = await judge(root, policy, command);
    assert.equal(j.decision, decision, `${command}: ${j.reason}`);
  }
  const why = await judge(root, policy, 'git {push,} origin');
  assert.match(why.reason, /only known when bash runs it.*bash\(git push\*\)/);
});

test('a deny rule the command may meet still asks in sandbox mode auto (the box lifts no deny rule)', async () => {
  const root = await makeTempWorkspace();
  const policy = policyFor(root, [], ['bash(git push*)']);
  for (const command of ['git {push,}', '$cmd push', 'eval "$x"']) {
    const judged = await judge(root, policy, command);
    const boxed = boxJudgement(judged, { tool: 'bash', input: { command } }, { mode: 'auto', active: true });
    assert.equal(boxed.decision, 'ask', `${command}: ${boxed.reason}`);
  }
  // Without such a rule, auto mode runs the same unknown command in the box, as before.
  const open = policyFor(root, []);
  const judged = await judge(root, open, 'git {push,}');
  const boxed = boxJudgement(
    judged,
    { tool: 'bash', input: { command: 'git {push,}' } },
    { mode: 'auto', active: true },
  );
  assert.equal(boxed.decision, 'allow');
});

test('exact rules for a literal `*` miss globs; wildcard rules miss a glob that may become an option', async () => {
  const root = await makeTempWorkspace();
  const policy = policyFor(root, ['bash(npm \\* -v)', 'bash(git log*)']);
  assert.equal((await judge(root, policy, "npm '*' -v")).decision, 'allow');
  assert.equal((await judge(root, policy, 'npm * -v')).decision, 'ask');
  const glob = await judge(root, policy, 'git log *');
  assert.equal(glob.decision, 'ask');
  assert.match(glob.reason, /`\*` is expanded by bash when it runs and could become an option of git/);
  assert.equal((await judge(root, policy, 'git log -1 --oneline')).decision, 'allow');
});

/** Commands that write the marker `x` through an expansion, with rules that look narrow. */
const MARKER_CASES: Array<{
  name: string;
  command: string;
  allow: string[];
  deny?: string[];
  files?: Record<string, string>;
}> = [
  {
    name: 'brace expansion turns a subcommand into an option',
    command: 'git {log,--output=x}',
    allow: ['bash(git *)'],
    deny: ['bash(git log*)'],
  },
  {
    name: 'a glob expands to a file named like an option',
    command: 'git log *',
    allow: ['bash(git log*)'],
    files: { '--output=x': '' },
  },
  {
    name: 'word splitting of a variable yields an option',
    command: "a='--output=x'; git log $a",
    allow: ['bash(git log*)', 'bash(a=*)'],
  },
];

async function gitRepo(files: Record<string, string> = {}): Promise<string> {
  const root = await makeTempWorkspace(files);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'first');
  return root;
}

test('marker cases: through the gate and the real bash tool nothing is written', { skip: !posix }, async () => {
  for (const c of MARKER_CASES) {
    const root = await gitRepo(c.files);
    const policy = policyFor(root, c.allow, c.deny ?? []);
    const judged = await judge(root, policy, c.command);
    assert.notEqual(judged.decision, 'allow', `${c.name}: ${judged.reason}`);
    if (judged.decision === 'allow')
      await bashTool.execute({ command: c.command }, makeContext(createNodePorts({ root })));
    assert.equal(existsSync(path.join(root, 'x')), false, `${c.name}: the marker appeared`);
  }
});

test('marker cases are real: without the policy, bash does write the marker', { skip: !posix }, async () => {
  for (const c of MARKER_CASES) {
    const root = await gitRepo(c.files);
    await bashTool.execute({ command: c.command }, makeContext(createNodePorts({ root })));
    assert.ok(existsSync(path.join(root, 'x')), `${c.name}: bash did not write x, so the case proves nothing`);
  }
});
