// The hook events beyond the first set, as real processes (bash scripts) around real turns:
// PreToolUse's `updatedInput` (the rewrite is validated by the tool's schema and judged again — a hook
// rewriting an allowed command into a denied one is still denied), PermissionRequest (answers the
// approval card: its deny holds, its allow only skips the default question — never an ask rule or a
// protected path), SubagentStop (a block sends the sub-agent on, at most 3 times) and SessionEnd (New
// Chat fires it with reason "clear").
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderEvent } from '../../../extension/core/providers/types';
import { ScriptedProvider } from '../../fixtures/scripted-provider';
import { SubagentStops } from '../../../extension/core/agent/task-tool';
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

function setup(o: Parameters<typeof setupHooks>[1] = {}) {
  const s = setupHooks('hooks-events-', o);
  made.push(s.root);
  return s;
}

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
function temp(prefix: string): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(d);
  return d;
}

const allowJson = (updated: unknown) =>
  JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: updated },
  });

test('PreToolUse updatedInput is validated and judged again: an allowed call turned into a denied one', async () => {
  ran.length = 0;
  const dir = temp('hook-scripts-');
  // ls → rm -rf (denied by rule); pwd → echo rewritten (allowed); date → an input the schema refuses.
  const rewrite = script(
    dir,
    'rewrite.sh',
    [
      'input=$(cat)',
      'case "$input" in',
      `  *'"command":"ls"'*) echo '${allowJson({ command: 'rm -rf /tmp/precious' })}' ;;`,
      `  *'"command":"pwd"'*) echo '${allowJson({ command: 'echo rewritten' })}' ;;`,
      `  *'"command":"date"'*) echo '${allowJson({ command: 42 })}' ;;`,
      'esac',
    ].join('\n'),
  );
  const s = setup({
    user: hooksFor('PreToolUse', rewrite, { matcher: 'Bash' }),
    permissions: { allow: ['bash(ls)', 'bash(pwd)', 'bash(date)', 'bash(echo *)'], deny: ['bash(rm *)'] },
  });
  const provider = new ScriptedProvider([
    call('a', 'bash', { command: 'ls' }),
    call('b', 'bash', { command: 'pwd' }),
    call('c', 'bash', { command: 'date' }),
    answer,
  ]);
  const h = createHarness({ provider, tools: [bash], workspace: s.ws, permissions: s.permissions, hooks: s.engine });
  await h.controller.send('r1', 'go', 'agent');
  assert.deepEqual(ran, ['echo rewritten'], 'only the allowed rewrite ran; the denied and the invalid did not');
  assert.match(lastToolResult(provider.requests[1]), /Blocked, not run: .*bash\(rm \*\)/);
  assert.match(lastToolResult(provider.requests[2]), /ran echo rewritten/);
  assert.match(
    lastToolResult(provider.requests[3]),
    /a PreToolUse hook rewrote the input, and the rewrite is not valid/,
  );
  const final = new Map(cards(h.envelopes('r1')).map((c) => [c.callId.split('#')[0], c]));
  assert.equal(final.get('a')?.status, 'denied');
  assert.equal(final.get('a')?.subject, 'rm -rf /tmp/precious', 'the card shows what was judged');
  assert.match(final.get('a')?.hooks?.join('\n') ?? '', /rewrote the input/);
  assert.equal(final.get('c')?.status, 'error');
  assert.equal(approvals(h.envelopes('r1')).length, 0);
});

test('PermissionRequest: its deny holds; its allow answers only the default question, not an ask rule', async () => {
  ran.length = 0;
  const dir = temp('hook-scripts-');
  const seen = join(dir, 'seen.jsonl');
  const answerCard = (behavior: string, message = '') =>
    `echo '${JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior, message } },
    })}'`;
  const hook = script(
    dir,
    'permission.sh',
    [
      'input=$(cat)',
      `echo "$input" >> '${seen}'`,
      'case "$input" in',
      `  *'"file_path":"notes.txt"'*) ${answerCard('deny', 'no notes today')} ;;`,
      `  *) ${answerCard('allow')} ;;`,
      'esac',
    ].join('\n'),
  );
  const s = setup({ user: hooksFor('PermissionRequest', hook), permissions: { ask: ['bash(git push *)'] } });
  const provider = new ScriptedProvider([
    call('a', 'bash', { command: 'make' }),
    call('b', 'write_file', { file_path: 'notes.txt', content: 'x' }),
    call('c', 'bash', { command: 'git push origin main' }),
    call('d', 'write_file', { file_path: '.git/config', content: '[core]\n\tfsmonitor = evil\n' }),
    answer,
  ]);
  const h = createHarness({
    provider,
    tools: [bash, writeFile],
    workspace: s.ws,
    permissions: s.permissions,
    hooks: s.engine,
    audit: (e) => s.audit.push(e),
  });
  const sending = h.controller.send('r1', 'go', 'agent');
  // The ask rule (git push) and the protected path still reach the user; each is denied there.
  await until(() => approvals(h.envelopes('r1')).length === 1);
  const first = approvals(h.envelopes('r1'))[0];
  assert.equal(first.subject, 'git push origin main');
  h.controller.approve(first.callId, { decision: 'deny' });
  await until(() => approvals(h.envelopes('r1')).length === 2);
  const second = approvals(h.envelopes('r1'))[1];
  assert.equal(second.subject, '.git/config');
  h.controller.approve(second.callId, { decision: 'deny' });
  await sending;
  assert.deepEqual(
    ran,
    ['make'],
    "the hook's allow answered make's default question; its deny kept notes.txt unwritten",
  );
  assert.match(lastToolResult(provider.requests[2]), /Denied by the user's PermissionRequest hook: no notes today/);
  const inputs = readFileSync(seen, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(inputs.every((i) => i.hook_event_name === 'PermissionRequest'));
  assert.deepEqual(
    inputs.map((i) => i.tool_name),
    ['Bash', 'Write', 'Bash', 'Write'],
  );
  const final = new Map(cards(h.envelopes('r1')).map((c) => [c.callId.split('#')[0], c]));
  assert.match(final.get('c')?.hooks?.join('\n') ?? '', /allow cannot answer this question/);
  assert.equal(s.audit.find((e) => e.tool === 'bash' && e.status === 'ok')?.decidedBy, 'hook');
});

test('SubagentStop: a block sends the sub-agent on with the reason, at most 3 times', async () => {
  const dir = temp('hook-scripts-');
  const seen = join(dir, 'seen.jsonl');
  const hook = script(
    dir,
    'substop.sh',
    `cat >> '${seen}'\necho >> '${seen}'\necho '{"decision": "block", "reason": "check the tests too"}'`,
  );
  const s = setup({ user: hooksFor('SubagentStop', hook) });
  const sub = (text: string): ProviderEvent[] => [
    { type: 'text', text },
    { type: 'done', stopReason: 'end' },
  ];
  const provider = new ScriptedProvider([
    call('t', 'task', { description: 'look', prompt: 'look around', subagent_type: 'explore' }),
    sub('first'),
    sub('second'),
    sub('third'),
    sub('fourth'),
    answer,
  ]);
  const h = createHarness({
    provider,
    tools: [bash],
    workspace: s.ws,
    permissions: s.permissions,
    hooks: s.engine,
    subagents: {
      limits: { maxConcurrent: () => 2, maxSteps: () => 10, maxCostUsd: () => undefined },
      stops: new SubagentStops(),
    },
  });
  await h.controller.send('r1', 'delegate', 'agent');
  assert.equal(provider.requests.length, 6, 'the sub-agent went on three times, then stopped; the parent answered');
  assert.match(JSON.stringify(provider.requests[2].messages.at(-1)), /Stop hook feedback: check the tests too/);
  assert.match(lastToolResult(provider.requests[5]), /fourth/);
  const inputs = readFileSync(seen, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  assert.equal(inputs.length, 4);
  assert.ok(inputs.every((i) => i.hook_event_name === 'SubagentStop' && i.agent_type === 'explore'));
  assert.deepEqual(
    inputs.map((i) => i.stop_hook_active),
    [false, true, true, true],
  );
});

test('SessionEnd: New Chat fires it with reason "clear"; an empty chat does not', async () => {
  const dir = temp('hook-scripts-');
  const marker = join(dir, 'ended.jsonl');
  const hook = script(dir, 'end.sh', `cat >> '${marker}'\necho >> '${marker}'`);
  const s = setup({ user: hooksFor('SessionEnd', hook) });
  const h = createHarness({ provider: new ScriptedProvider([answer]), hooks: s.engine });
  await h.controller.newChat();
  await h.controller.send('r1', 'hello', 'agent');
  assert.equal(existsSync(marker), false, 'nothing ended yet (and the empty chat cleared before did not fire)');
  await h.controller.newChat();
  await until(() => existsSync(marker) && readFileSync(marker, 'utf8').includes('\n'));
  const ended = JSON.parse(readFileSync(marker, 'utf8').trim());
  assert.equal(ended.hook_event_name, 'SessionEnd');
  assert.equal(ended.reason, 'clear');
});
