// What a hook may decide, through real turns with hooks run as real processes (bash scripts) and the
// real permission policy: a hook's `if` scopes it both ways (an approver of `git status` approves
// nothing else; a guard of `git push` leaves `ls` alone but still sees `cd x && git push`; an `if` that
// cannot be read keeps the guard and voids the allow); no hook's allow runs a command while no sandbox
// works; a workspace hook's approval binds the script it runs; and a "prompt" hook or a newer event
// beside a guard leaves the guard in force.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionGate } from '../../../extension/core/agent/permission-gate';
import { HookEngine } from '../../../extension/core/extensions/hooks/hook-engine';
import { boxedHookRunner } from '../../../extension/core/extensions/hooks/hook-process';
import { HookSettings } from '../../../extension/core/extensions/hooks/hook-settings';
import { HookTrust } from '../../../extension/core/extensions/hooks/hook-trust';
import { createPolicy } from '../../../extension/core/permissions';
import type { PermissionSettings } from '../../../extension/core/permissions/types';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import type { SandboxPort, SandboxStatus } from '../../../extension/core/sandbox/types';
import { defaultChildEnv } from '../../../extension/core/security/child-env';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { NodeWorkspace } from '../../fixtures/node-ports';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness } from './harness';
import { approvals, bash, MemoryState, ran, script, until } from './hook-turn-fixture';

function fakeSandbox(status: SandboxStatus): SandboxPort {
  return {
    status: () => status,
    launch: async () => {
      throw new Error('not in this test');
    },
    widen: async () => {},
  };
}

function setup(o: { user?: unknown; workspace?: unknown; permissions?: PermissionSettings } = {}) {
  // A path with a space: hooks and scripts must work from any clone.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hooks scope-')));
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  const settings = new HookSettings(
    new HookTrust(new MemoryState()),
    () => true,
    () => root,
  );
  settings.setUser(o.user);
  const setWorkspace = (hooks: unknown) =>
    settings.setWorkspaceFiles([{ file: '.claude/settings.json', text: JSON.stringify({ hooks }) }]);
  if (o.workspace) setWorkspace(o.workspace);
  const policy = createPolicy({
    user: o.permissions ?? {},
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
  const engine = new HookEngine({
    hooks: () => settings.inForce(),
    run: boxedHookRunner(() => undefined),
    env: () => defaultChildEnv(),
    cwd: () => root,
    policy: () => policy,
  });
  const permissions: PermissionGate = { policy: () => policy, rememberRule: async () => undefined };
  return { root, settings, engine, permissions, setWorkspace, ws: new NodeWorkspace({ roots: [root] }) };
}

const ALLOW = 'echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}\'';
const quoted = (p: string) => `'${p}'`;

const handler = (command: string, more: Record<string, unknown> = {}) => ({ type: 'command', command, ...more });
const on = (event: string, matcher: string | undefined, ...hooks: unknown[]) => ({
  [event]: [{ ...(matcher !== undefined ? { matcher } : {}), hooks }],
});

const call = (id: string, command: string): ProviderEvent[] => [
  { type: 'tool_call', call: { id, name: 'bash', argumentsJson: JSON.stringify({ command }) } },
  { type: 'done', stopReason: 'tool_calls' },
];
const answer: ProviderEvent[] = [
  { type: 'text', text: 'done' },
  { type: 'done', stopReason: 'end' },
];

/**
 * Runs one turn of bash calls; every card that comes up is denied (and recorded). Returns the subjects
 * asked about, with the card's reason.
 */
async function turn(
  s: ReturnType<typeof setup>,
  commands: string[],
  sandbox?: SandboxPort,
): Promise<Array<{ subject: string; reason: string }>> {
  ran.length = 0;
  const provider = new ScriptedProvider([...commands.map((c, i) => call(`c${i}`, c)), answer]);
  const h = createHarness({
    provider,
    tools: [bash],
    workspace: s.ws,
    permissions: s.permissions,
    hooks: s.engine,
    ...(sandbox ? { sandbox } : {}),
  });
  const asked: Array<{ subject: string; reason: string }> = [];
  const sending = h.controller.send('r1', 'go', 'agent');
  let done = false;
  void sending.then(() => (done = true));
  while (!done) {
    await until(() => done || approvals(h.envelopes('r1')).length > asked.length);
    const pending = approvals(h.envelopes('r1'));
    for (const a of pending.slice(asked.length)) {
      asked.push({ subject: a.subject, reason: a.reason ?? '' });
      h.controller.approve(a.callId, { decision: 'deny' });
    }
  }
  await sending;
  return asked;
}

test('an allow-hook scoped with "if": Bash(git status*) approves git status and nothing else', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const approver = script(dir, 'approve.sh', ALLOW);
  const s = setup({ user: on('PreToolUse', 'Bash', handler(quoted(approver), { if: 'Bash(git status*)' })) });
  const asked = await turn(s, [
    'git status',
    'git push --force origin main',
    'npm publish',
    'git reset --hard',
    'docker run --privileged -v /:/host alpine',
    'git status && git push --force origin main',
  ]);
  assert.deepEqual(ran, ['git status'], 'only git status ran unasked');
  assert.deepEqual(
    asked.map((a) => a.subject),
    [
      'git push --force origin main',
      'npm publish',
      'git reset --hard',
      'docker run --privileged -v /:/host alpine',
      'git status && git push --force origin main',
    ],
  );
});

test('a guard scoped with "if": Bash(git push*) leaves ls alone and still blocks git push inside a chain', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const guard = script(dir, 'guard.sh', 'echo "no pushing from the agent" >&2\nexit 2');
  const s = setup({
    user: on('PreToolUse', 'Bash', handler(quoted(guard), { if: 'Bash(git push*)' })),
    permissions: { allow: ['bash(ls)', 'bash(cd *)', 'bash(git push *)'] },
  });
  const asked = await turn(s, ['ls', 'git push origin main', 'cd sub && git push origin main']);
  assert.deepEqual(asked, []);
  assert.deepEqual(ran, ['ls'], 'the guard blocked both pushes and not ls');
});

test('an "if" that cannot be read keeps the guard running and voids an allow', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const guard = script(dir, 'guard.sh', 'echo "blocked" >&2\nexit 2');
  const g = setup({
    user: on('PreToolUse', 'Bash', handler(quoted(guard), { if: 'Bash(git push' })),
    permissions: { allow: ['bash(ls)'] },
  });
  assert.deepEqual(await turn(g, ['ls']), []);
  assert.deepEqual(ran, [], 'a guard whose if cannot be read still runs');

  const approver = script(dir, 'approve.sh', ALLOW);
  const a = setup({ user: on('PreToolUse', 'Bash', handler(quoted(approver), { if: 'Bash(git status' })) });
  const asked = await turn(a, ['git status']);
  assert.deepEqual(ran, []);
  assert.deepEqual(
    asked.map((x) => x.subject),
    ['git status'],
    'an allow whose if cannot be read does not count',
  );
});

test("no hook's allow runs a command while no sandbox works: PreToolUse and PermissionRequest ask", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const approver = script(dir, 'approve.sh', ALLOW);
  const answers = script(
    dir,
    'answer.sh',
    'echo \'{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}\'',
  );
  const noBox = fakeSandbox({ mode: 'auto', active: false, reason: 'bubblewrap is not installed' });
  const pre = setup({ user: on('PreToolUse', 'Bash', handler(quoted(approver))) });
  const asked = await turn(pre, ['./scripts/deploy.sh'], noBox);
  assert.deepEqual(ran, [], 'not run unboxed without a card');
  assert.equal(asked.length, 1);
  assert.match(asked[0].reason, /a hook allowed this, but no sandbox works here \(bubblewrap is not installed\)/);

  const perm = setup({ user: on('PermissionRequest', 'Bash', handler(quoted(answers))) });
  assert.equal((await turn(perm, ['./scripts/deploy.sh'], noBox)).length, 1, 'the card is shown');
  assert.deepEqual(ran, []);

  const off = fakeSandbox({ mode: 'off', active: false });
  assert.equal((await turn(pre, ['./scripts/deploy.sh'], off)).length, 1, 'sextant.sandbox.mode off: asks too');

  // With a working box the hook's allow skips the default question, as before.
  const box = fakeSandbox({ mode: 'box', backend: 'bubblewrap', active: true });
  assert.deepEqual(await turn(pre, ['./scripts/deploy.sh'], box), []);
  assert.deepEqual(ran, ['./scripts/deploy.sh']);
});

test("a workspace hook's approval binds the script it runs: editing the script asks again", async () => {
  const s = setup();
  const marker = join(s.root, 'hook-ran');
  mkdirSync(join(s.root, 'scripts'));
  mkdirSync(join(s.root, '.claude', 'hooks'), { recursive: true });
  const body = (tag: string) => `echo ${tag} >> '${marker}'`;
  script(join(s.root, 'scripts'), 'mark.sh', body('sh'));
  writeFileSync(
    join(s.root, '.claude', 'hooks', 'mark.js'),
    "require('fs').appendFileSync(process.argv[2], 'js\\n');\n",
  );
  s.setWorkspace({
    ...on('UserPromptSubmit', undefined, handler('./scripts/mark.sh')),
    ...on('Stop', undefined, handler(`node "$CLAUDE_PROJECT_DIR"/.claude/hooks/mark.js '${marker}'`)),
  });
  const provider = new ScriptedProvider([answer, answer, answer, answer]);
  const h = createHarness({ provider, hooks: s.engine });
  assert.ok(await s.settings.decide(s.settings.view().workspace?.hash ?? '', true));
  await h.controller.send('r1', 'hello', 'agent');
  assert.equal(readFileSync(marker, 'utf8'), 'sh\njs\n', 'both ran once approved');

  // The repository's script changes (a pull, or the agent's own edit): nothing runs until approved again.
  script(join(s.root, 'scripts'), 'mark.sh', body('edited'));
  assert.equal(s.settings.view().workspace?.state, 'pending');
  assert.equal(s.settings.view().workspace?.changed, true);
  await h.controller.send('r2', 'again', 'agent');
  assert.equal(readFileSync(marker, 'utf8'), 'sh\njs\n', 'the edited script did not run unapproved');
  assert.ok(await s.settings.decide(s.settings.view().workspace?.hash ?? '', true));
  writeFileSync(
    join(s.root, '.claude', 'hooks', 'mark.js'),
    "require('fs').appendFileSync(process.argv[2], 'JS\\n');\n",
  );
  await h.controller.send('r3', 'third', 'agent');
  assert.equal(readFileSync(marker, 'utf8'), 'sh\njs\n', "an interpreter's script is bound too");
});

test('a "prompt" hook and newer events beside a guard: the guard still blocks, the rest is reported', async () => {
  const s = setup({ permissions: { allow: ['bash(rm *)'] } });
  mkdirSync(join(s.root, 'scripts'));
  script(join(s.root, 'scripts'), 'guard.sh', 'echo "rm is not allowed here" >&2\nexit 2');
  s.setWorkspace({
    ...on(
      'PreToolUse',
      'Bash',
      { type: 'prompt', prompt: 'Is this safe? $ARGUMENTS' },
      handler('"$CLAUDE_PROJECT_DIR"/scripts/guard.sh'),
    ),
    ...on('SubagentStart', undefined, handler('echo start')),
    ...on('PostCompact', undefined, handler('echo compacted')),
  });
  const view = s.settings.view();
  assert.deepEqual(
    view.workspace?.hooks.map((x) => x.command),
    ['"$CLAUDE_PROJECT_DIR"/scripts/guard.sh'],
  );
  assert.equal(view.problems.length, 3);
  assert.match(view.problems.join('\n'), /"prompt" hook; Sextant runs "command" hooks only/);
  assert.match(view.problems.join('\n'), /"SubagentStart" is a Claude Code event Sextant does not fire/);
  assert.match(view.problems.join('\n'), /"PostCompact" is a Claude Code event Sextant does not fire/);
  assert.ok(await s.settings.decide(view.workspace?.hash ?? '', true));
  assert.deepEqual(await turn(s, ['rm -rf build']), []);
  assert.deepEqual(ran, [], 'the guard blocked rm');
});
