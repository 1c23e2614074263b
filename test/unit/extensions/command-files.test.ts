// A command file's body as Claude Code reads it: `` !`command` `` runs before the prompt is sent — judged
// by the real permission policy with the command's own allowed-tools pre-approved, run in the real box
// (bubblewrap), its output inlined and redacted, never asking — and `@path` attaches the file under the
// same read rules as the user's `@` chips.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ApprovalRequest } from '../../../extension/core/ports';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { gateWithPreApproval, type PermissionGate } from '../../../extension/core/agent/permission-gate';
import { mapAllowedTools } from '../../../extension/core/extensions/allowed-tools';
import { runShellCommandsOf, type CommandShellDeps } from '../../../extension/core/agent/command-shell';
import { bodyFileReferences, bodyShellCommands } from '../../../extension/core/extensions/command-body';
import { expandPrompt } from '../../../extension/core/extensions/prompt-expansion';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { resolveReferences } from '../../../extension/core/extensions/references/resolve';
import { createToolSessionState, disposeToolSession } from '../../../extension/core/tools/util/session';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { detectBackend } from '../../../extension/platform/sandbox/detect';
import { createNodePorts } from '../../fixtures/node-ports';
import { projectOnDisk } from './helpers';

const detected = detectBackend();
const noBox =
  detected.ok && detected.backend === 'bubblewrap'
    ? false
    : `no bubblewrap box here: ${detected.ok ? detected.backend : detected.reason}`;
if (noBox) console.log(`# boxed command-file test skipped: ${noBox}`);

// The shape of Claude Code's documented /commit command.
const COMMIT_COMMAND = `---
allowed-tools: Bash(echo:*), Bash(git status:*)
description: Create a git commit
---
## Context

- Greeting: !\`echo hello from the box\`
- Chained: !\`echo made > made.txt && cat made.txt\`
- Key: !\`echo sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789\`

See @src/app.ts and @docs/ for the code; ask @team. Based on the above changes, create a single git commit.
`;

test('the body: its !`commands` in order, and its @paths (not @names, not inside a command)', () => {
  assert.deepEqual(bodyShellCommands(COMMIT_COMMAND), [
    'echo hello from the box',
    'echo made > made.txt && cat made.txt',
    'echo sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789',
  ]);
  assert.deepEqual(
    bodyFileReferences(COMMIT_COMMAND).map((r) => [r.kind, r.value]),
    [
      ['file', 'src/app.ts'],
      ['folder', 'docs/'],
    ],
  );
  assert.deepEqual(bodyFileReferences('Mail a@b.c, or see !`cat @x/y`.'), []);
});

function boxedSetup(mode: 'box' | 'auto', user: { allow?: string[]; deny?: string[] } = {}) {
  const base = path.join(process.cwd(), 'test-results', `command-shell-${process.pid}-${mode}`);
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  mkdirSync(ws, { recursive: true });
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  const real = { ws: realpathSync(ws), home: realpathSync(home), base: realpathSync(base) };
  const ports = createNodePorts({ root: real.ws });
  const asked: ApprovalRequest[] = [];
  ports.approval = {
    request: async (req) => {
      asked.push(req);
      return { decision: 'approve' };
    },
  };
  const sandbox = createSandbox({
    settings: () => ({ mode, allowedHosts: [], extraWriteRoots: [] }),
    workspaceFolders: () => [real.ws],
    home: real.home,
    stateRoot: path.join(real.base, 'state'),
  });
  ports.sandbox = sandbox;
  ports.childEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: real.home, LANG: 'C' });
  const policy = createPolicy({ user, workspaceFolders: [real.ws], home: real.home, tools: declaredToolFacts() });
  const gate: PermissionGate = { policy: () => policy, rememberRule: async () => undefined };
  const session = createToolSessionState('s');
  const audit: Array<{ decision: string; status: string }> = [];
  let n = 0;
  const deps = (permissions: PermissionGate, agentMode: CommandShellDeps['mode'] = 'agent'): CommandShellDeps => ({
    mode: agentMode,
    permissions,
    ports,
    session,
    signal: new AbortController().signal,
    audit: (e) => audit.push({ decision: e.decision, status: e.status }),
    newId: () => `id${++n}`,
    now: () => 0,
  });
  return {
    ...real,
    gate,
    asked,
    audit,
    deps,
    done: () => {
      disposeToolSession(session);
      sandbox.dispose();
      rmSync(real.base, { recursive: true, force: true });
    },
  };
}

test('!`commands` run through the policy and the box: allowed-tools allow, the rest is not run and says why', {
  skip: noBox,
}, async () => {
  const t = boxedSetup('box');
  try {
    // The command's own allowed-tools, pre-approved for its turn exactly as its tool calls are.
    const { rules } = mapAllowedTools(['Bash(echo:*), Bash(git status:*)'], { workspace: false });
    const gate = gateWithPreApproval(t.gate, { rules, source: '/commit' });
    const out = await runShellCommandsOf(COMMIT_COMMAND, t.deps(gate));
    // Allowed: its output in its place, with the status line, the key redacted.
    assert.match(
      out,
      /- Greeting: \n```\n\$ echo hello from the box\nhello from the box\n\[exit code 0 · [^\]]+\]\n```/,
    );
    assert.doesNotMatch(out, /sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789/);
    // `cat` is not in allowed-tools: the chain would ask, so it is not run (nothing asked, nothing made).
    assert.match(out, /\$ echo made > made\.txt && cat made\.txt\n\[not run: it would need the user's approval/);
    assert.equal(existsSync(path.join(t.ws, 'made.txt')), false);
    assert.equal(t.asked.length, 0, 'nothing asks before the model is called');
    assert.doesNotMatch(out, /!`/);
    assert.match(out, /See @src\/app\.ts/, 'the rest of the body is as written');
    assert.deepEqual(
      t.audit.map((a) => `${a.decision}/${a.status}`),
      ['allow/ok', 'ask/denied', 'allow/ok'],
    );

    // Without the command's pre-approval the same line asks by default, so it does not run.
    const bare = await runShellCommandsOf('!`echo hi`', t.deps(t.gate));
    assert.match(bare, /\[not run: it would need the user's approval/);
    // Outside Agent mode nothing runs.
    assert.match(
      await runShellCommandsOf('!`echo hi`', t.deps(gate, 'chat')),
      /\[not run: commands run only in Agent mode\]/,
    );
  } finally {
    t.done();
  }
});

test('!`commands` in sandbox auto mode run boxed (secrets hidden, no writes outside); a deny rule still refuses', {
  skip: noBox,
}, async () => {
  const t = boxedSetup('auto', { deny: ['bash(curl *)'] });
  try {
    const outside = path.join(t.base, 'escaped.txt');
    const out = await runShellCommandsOf(
      `!\`cat ~/.ssh/id_rsa\`\n!\`echo x > ${outside}\`\n!\`echo inside > in.txt\`\n!\`curl http://example.com\``,
      t.deps(t.gate),
    );
    assert.doesNotMatch(out, /PRIVATE KEY/);
    assert.equal(existsSync(outside), false, 'the box (or the policy) kept the write outside the workspace out');
    assert.equal(existsSync(path.join(t.ws, 'in.txt')), true, 'inside the workspace the command ran');
    assert.match(out, /\$ curl http:\/\/example\.com\n\[not run: refused by the permission rules/);
    assert.equal(t.asked.length, 0);
  } finally {
    t.done();
  }
});

test('@path in a command body: attached under the read rules; a refused file refuses the message', async () => {
  const p = await projectOnDisk({
    '.claude/commands/explain.md': '---\ndescription: Explain\n---\nExplain @src/app.ts to me.',
    '.claude/commands/leak.md': '---\ndescription: Leak\n---\nSummarise @config/secret.txt please.',
    'src/app.ts': 'export const answer = 42;\n',
    'config/secret.txt': 'hunter2\n',
  });
  const project = new ProjectContext(p.files);
  const policy = createPolicy({
    user: { deny: ['read_file(config/**)'] },
    workspaceFolders: [p.root],
    home: p.home,
    tools: declaredToolFacts(),
  });
  const services = {
    workspace: createNodePorts({ root: p.root }).workspace,
    ripgrepPath: () => undefined,
    permissions: { policy: () => policy, rememberRule: async () => undefined },
    editor: { selection: async () => undefined, problems: async () => '', terminalOutput: async () => undefined },
    confirmRead: async () => false,
  };
  const explained = await expandPrompt(project.commands, '/explain');
  assert.ok(explained.ok);
  assert.deepEqual(explained.references, [{ kind: 'file', value: 'src/app.ts', label: '@src/app.ts' }]);
  const read = await resolveReferences(explained.references ?? [], services);
  assert.ok(read.ok);
  assert.match(read.attachments[0]?.content ?? '', /export const answer = 42;/);

  const leaked = await expandPrompt(project.commands, '/leak');
  assert.ok(leaked.ok);
  const refused = await resolveReferences(leaked.references ?? [], services);
  assert.ok(!refused.ok);
  assert.match(refused.message, /@config\/secret\.txt: reading .* is refused/);
});
