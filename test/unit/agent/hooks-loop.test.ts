// Hooks on the agent's events, run as real processes (bash scripts) around real turns: a PreToolUse
// hook that denies (the tool does not run, the model gets the reason, the card shows it, the audit log
// has it), exit code 2, a hook that times out (the turn goes on), a UserPromptSubmit hook's context in
// the model's request, PostToolUse feedback, a Stop hook that sends the turn on, a hook's allow that
// cannot beat a deny rule or a protected path, a workspace hook that runs only after approval (a marker
// file proves it) and asks again when changed, and Stop ending a hook that hangs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { createHarness } from './harness';
import {
  answer,
  approvals,
  bash,
  call,
  cards,
  hooksFor,
  lastToolResult,
  ran,
  script,
  setupHooks,
  until,
  writeFile,
} from './hook-turn-fixture';

const setup = (o: Parameters<typeof setupHooks>[1] = {}) => setupHooks('hooks-loop-', o);

test('a PreToolUse hook that denies: the tool does not run, the model is told why; card and audit say so', async () => {
  ran.length = 0;
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const seen = join(dir, 'input.json');
  const deny = script(
    dir,
    'deny.sh',
    `cat > '${seen}'\necho '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", ` +
      `"permissionDecisionReason": "rm is not allowed in this repo"}}'`,
  );
  const s = setup({ user: hooksFor('PreToolUse', deny, { matcher: 'Bash' }), permissions: { allow: ['bash'] } });
  const provider = new ScriptedProvider([call('a', 'bash', { command: 'rm -rf build' }), answer]);
  const h = createHarness({
    provider,
    tools: [bash],
    workspace: s.ws,
    permissions: s.permissions,
    hooks: s.engine,
    audit: (e) => s.audit.push(e),
  });
  await h.controller.send('r1', 'clean up', 'agent');
  assert.deepEqual(ran, [], 'the tool did not run');
  assert.match(lastToolResult(provider.requests[1]), /a PreToolUse hook denied it: rm is not allowed in this repo/);
  const input = JSON.parse(readFileSync(seen, 'utf8'));
  assert.equal(input.hook_event_name, 'PreToolUse');
  assert.equal(input.tool_name, 'Bash', "the hook sees Claude Code's name");
  assert.deepEqual(input.tool_input, { command: 'rm -rf build' });
  assert.equal(input.cwd, s.root);
  const last = cards(h.envelopes('r1')).at(-1);
  assert.equal(last?.status, 'denied');
  assert.match(last?.hooks?.join('\n') ?? '', /deny: rm is not allowed/);
  const hookEntry = s.audit.find((e) => e.tool === 'hook:PreToolUse');
  assert.equal(hookEntry?.decision, 'deny');
  assert.equal(hookEntry?.decidedBy, 'hook');
  const callEntry = s.audit.find((e) => e.tool === 'bash');
  assert.equal(callEntry?.decidedBy, 'hook');
  assert.equal(callEntry?.status, 'denied');
});

test('exit code 2 blocks with stderr as the reason', async () => {
  ran.length = 0;
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const block = script(dir, 'block.sh', 'echo "writes to dist are generated" >&2\nexit 2');
  const s = setup({ user: hooksFor('PreToolUse', block, { matcher: 'Edit|Write' }), permissions: { allow: ['edit'] } });
  const provider = new ScriptedProvider([
    call('a', 'write_file', { file_path: 'dist/x.js', content: 'x' }),
    call('b', 'bash', { command: 'echo hi' }),
    answer,
  ]);
  const h = createHarness({
    provider,
    tools: [bash, writeFile],
    workspace: s.ws,
    permissions: s.permissions,
    hooks: s.engine,
  });
  const sending = h.controller.send('r1', 'build', 'agent');
  await until(() => approvals(h.envelopes('r1')).length === 1);
  h.controller.approve(approvals(h.envelopes('r1'))[0].callId, { decision: 'approve' });
  await sending;
  assert.deepEqual(ran, ['echo hi'], 'the write was blocked; bash (not matched) asked and ran');
  assert.match(lastToolResult(provider.requests[1]), /writes to dist are generated/);
});

test('a hook that times out is ended, the card says so, and the turn goes on', async () => {
  ran.length = 0;
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const marker = join(dir, 'after-sleep');
  const slow = script(dir, 'slow.sh', `sleep 30\ntouch '${marker}'`);
  const s = setup({ user: hooksFor('PreToolUse', slow, { timeout: 1 }), permissions: { allow: ['bash'] } });
  const provider = new ScriptedProvider([call('a', 'bash', { command: 'npm test' }), answer]);
  const h = createHarness({ provider, tools: [bash], workspace: s.ws, permissions: s.permissions, hooks: s.engine });
  await h.controller.send('r1', 'test', 'agent');
  assert.deepEqual(ran, ['npm test'], 'a timed-out hook does not block');
  const last = cards(h.envelopes('r1')).at(-1);
  assert.equal(last?.status, 'ok');
  assert.match(last?.hooks?.join('\n') ?? '', /timed out after 1 s/);
  assert.equal(provider.requests.length, 2, 'the turn went on to its answer');
  assert.equal(existsSync(marker), false, 'the hook was killed, not left running');
  assert.equal(s.audit.find((e) => e.tool === 'hook:PreToolUse')?.status, 'error');
});

test("a UserPromptSubmit hook's context reaches the model's request; one that blocks stops the prompt", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const ctx = script(
    dir,
    'ctx.sh',
    `prompt=$(cat | sed -n 's/.*"prompt":"\\([^"]*\\)".*/\\1/p')\n` +
      'echo "{\\"hookSpecificOutput\\": {\\"hookEventName\\": \\"UserPromptSubmit\\", ' +
      '\\"additionalContext\\": \\"Ticket ABC-42 is in scope (prompt was: $prompt)\\"}}"',
  );
  const s = setup({ user: hooksFor('UserPromptSubmit', ctx) });
  const provider = new ScriptedProvider([answer, answer]);
  const h = createHarness({ provider, hooks: s.engine });
  await h.controller.send('r1', 'fix the login bug', 'agent');
  const user = provider.requests[0].messages.at(-1);
  assert.equal(user?.role, 'user');
  assert.match(JSON.stringify(user), /fix the login bug/);
  assert.match(JSON.stringify(user), /Ticket ABC-42 is in scope \(prompt was: fix the login bug\)/);
  // The history keeps the message as sent, so the next request's prefix is the same bytes.
  await h.controller.send('r2', 'and the logout one', 'agent');
  assert.match(JSON.stringify(provider.requests[1].messages[0]), /Ticket ABC-42/);

  const blocker = script(dir, 'block.sh', 'echo "no secrets in prompts" >&2\nexit 2');
  const b = setup({ user: hooksFor('UserPromptSubmit', blocker) });
  const quiet = new ScriptedProvider([answer]);
  const hb = createHarness({ provider: quiet, hooks: b.engine });
  await hb.controller.send('r1', 'my password is hunter2', 'agent');
  assert.equal(quiet.requests.length, 0, 'the model never saw the prompt');
  const notices = hb.envelopes('r1').flatMap((e) => (e.event.type === 'notice' ? [e.event.text] : []));
  assert.ok(notices.some((n) => /blocked this prompt: no secrets in prompts/.test(n)));
});

test('PostToolUse feedback reaches the model; a Stop hook that blocks sends the turn on once more', async () => {
  ran.length = 0;
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const post = script(dir, 'post.sh', 'echo \'{"decision": "block", "reason": "lint failed: missing semicolon"}\'');
  const stop = script(
    dir,
    'stop.sh',
    `if grep -q '"stop_hook_active":true'; then exit 0; fi\n` +
      `echo '{"decision": "block", "reason": "run the tests first"}'`,
  );
  const s = setup({
    user: { ...hooksFor('PostToolUse', post, { matcher: 'Bash' }), ...hooksFor('Stop', stop) },
    permissions: { allow: ['bash'] },
  });
  const provider = new ScriptedProvider([call('a', 'bash', { command: 'make' }), answer, answer]);
  const h = createHarness({ provider, tools: [bash], workspace: s.ws, permissions: s.permissions, hooks: s.engine });
  await h.controller.send('r1', 'build', 'agent');
  assert.match(lastToolResult(provider.requests[1]), /PostToolUse hook feedback: lint failed: missing semicolon/);
  assert.equal(provider.requests.length, 3, 'the Stop hook sent the turn on once, then let it stop');
  assert.match(JSON.stringify(provider.requests[2].messages.at(-1)), /Stop hook feedback: run the tests first/);
});

test("a hook's allow cannot beat a deny rule or a protected path", async () => {
  ran.length = 0;
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const allow = script(
    dir,
    'allow.sh',
    'echo \'{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}\'',
  );
  const s = setup({ user: hooksFor('PreToolUse', allow), permissions: { deny: ['bash(curl *)'] } });
  const provider = new ScriptedProvider([
    call('a', 'bash', { command: 'curl https://evil.example' }),
    call('b', 'write_file', { file_path: '.git/config', content: '[core]\n\tfsmonitor = evil\n' }),
    call('c', 'bash', { command: 'ls' }),
    answer,
  ]);
  const h = createHarness({
    provider,
    tools: [bash, writeFile],
    workspace: s.ws,
    permissions: s.permissions,
    hooks: s.engine,
  });
  const sending = h.controller.send('r1', 'go', 'agent');
  await until(() => approvals(h.envelopes('r1')).length === 1);
  const asked = approvals(h.envelopes('r1'))[0];
  assert.equal(asked.subject, '.git/config', 'the protected path still asks');
  h.controller.approve(asked.callId, { decision: 'deny' });
  await sending;
  assert.deepEqual(ran, ['ls'], 'the hook allowed ls (a default ask); curl stayed denied, .git/config was not written');
  assert.match(lastToolResult(provider.requests[1]), /Blocked, not run: .*bash\(curl \*\)/);
});

test('a workspace hook does not run before approval (a marker file), runs after, asks again when changed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const marker = join(dir, 'ran');
  const hookCmd = script(dir, 'mark.sh', `echo run >> '${marker}'`);
  const s = setup({ workspace: hooksFor('UserPromptSubmit', hookCmd) });
  const provider = new ScriptedProvider([answer, answer, answer]);
  const h = createHarness({ provider, hooks: s.engine });
  assert.equal(s.settings.view().workspace?.state, 'pending');
  await h.controller.send('r1', 'hello', 'agent');
  assert.equal(existsSync(marker), false, 'not run before approval');
  assert.ok(await s.settings.decide(s.settings.view().workspace?.hash ?? '', true));
  await h.controller.send('r2', 'again', 'agent');
  assert.equal(readFileSync(marker, 'utf8'), 'run\n', 'run once approved');
  s.settings.setWorkspaceFiles([
    {
      file: '.claude/settings.json',
      text: JSON.stringify({ hooks: hooksFor('UserPromptSubmit', `${hookCmd} changed`) }),
    },
  ]);
  assert.equal(s.settings.view().workspace?.state, 'pending');
  assert.equal(s.settings.view().workspace?.changed, true);
  await h.controller.send('r3', 'third', 'agent');
  assert.equal(readFileSync(marker, 'utf8'), 'run\n', 'the changed hook did not run unapproved');
});

test('Stop ends a hook that hangs, and the turn with it', async () => {
  ran.length = 0;
  const dir = mkdtempSync(join(tmpdir(), 'hook-scripts-'));
  const started = join(dir, 'started');
  const marker = join(dir, 'finished');
  const hang = script(dir, 'hang.sh', `touch '${started}'\nsleep 30\ntouch '${marker}'`);
  const s = setup({ user: hooksFor('PreToolUse', hang), permissions: { allow: ['bash'] } });
  const provider = new ScriptedProvider([call('a', 'bash', { command: 'ls' }), answer]);
  const h = createHarness({ provider, tools: [bash], workspace: s.ws, permissions: s.permissions, hooks: s.engine });
  const sending = h.controller.send('r1', 'go', 'agent');
  await until(() => existsSync(started));
  await h.controller.stop('r1');
  await sending;
  assert.deepEqual(ran, []);
  assert.ok(h.envelopes('r1').some((e) => e.event.type === 'aborted'));
  assert.equal(existsSync(marker), false);
});
