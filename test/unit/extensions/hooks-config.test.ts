// Hooks' configuration and decisions without processes: Claude Code's settings shape (a bad file is
// refused whole, with its name and line), matchers over Claude Code's tool names and ours, how several
// hooks' verdicts merge, what a hook's decision may do to the permission policy's, and the approval
// bound to a hash of the workspace's hooks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hooksFromValue, parseHooksFile } from '../../../extension/core/extensions/hooks/config';
import { claudeToolName, matcherMatches } from '../../../extension/core/extensions/hooks/tool-names';
import { mergeVerdicts, readVerdict } from '../../../extension/core/extensions/hooks/hook-output';
import { hookAllowRefusal, withHookDecision } from '../../../extension/core/extensions/hooks/hook-permission';
import { workspaceScriptsDigest } from '../../../extension/core/extensions/hooks/hook-scripts';
import { HookConditions, parseHookCondition } from '../../../extension/core/extensions/hooks/hook-condition';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HookSettings } from '../../../extension/core/extensions/hooks/hook-settings';
import { HookTrust } from '../../../extension/core/extensions/hooks/hook-trust';
import type { Decision } from '../../../extension/core/permissions/types';

const file = (hooks: unknown) => JSON.stringify({ permissions: { deny: [] }, hooks }, null, 2);

test("Claude Code's settings shape is read as is: events, matchers, commands, timeouts (default 60 s)", () => {
  const parsed = parseHooksFile(
    file({
      PreToolUse: [{ matcher: 'Bash|Write', hooks: [{ type: 'command', command: 'check.sh', timeout: 5 }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'ctx.sh' }] }],
      SubagentStop: [{ hooks: [{ type: 'command', command: 'sub.sh' }] }],
      // An event Claude Code has and Sextant does not fire: reported and ignored; the file still counts.
      PostToolUseFailure: [{ hooks: [{ type: 'command', command: 'later.sh' }] }],
    }),
    '.claude/settings.json',
  );
  assert.equal(parsed.problems.length, 1);
  assert.match(
    parsed.problems[0],
    /^\.claude\/settings\.json:\d+:\d+: "PostToolUseFailure" is a Claude Code event Sextant does not fire; its 1 hook/,
  );
  assert.deepEqual(
    parsed.hooks.map((h) => `${h.event} ${h.matcher} ${h.command} ${h.timeoutS} ${h.scope}`),
    [
      'PreToolUse Bash|Write check.sh 5 workspace',
      'UserPromptSubmit  ctx.sh 60 workspace',
      'SubagentStop  sub.sh 60 workspace',
    ],
  );
});

test('a bad hooks entry is ignored and reported by file and line; its neighbours still count', () => {
  const text = file({
    PreToolUse: [
      { matcher: 'Bash', hooks: [{ type: 'command' }, { type: 'command', command: 'guard.sh' }] },
      { matcher: 'Edit', hooks: 'nope' },
    ],
  });
  const parsed = parseHooksFile(text, '.claude/settings.json');
  assert.deepEqual(
    parsed.hooks.map((h) => h.command),
    ['guard.sh'],
  );
  assert.equal(parsed.problems.length, 2);
  assert.match(
    parsed.problems[0],
    /^\.claude\/settings\.json:\d+:\d+: "PreToolUse\[0\]\.hooks\[0\]" "command" .*; ignored\.$/,
  );
  assert.match(parsed.problems[1], /^\.claude\/settings\.json:\d+:\d+: "PreToolUse\[1\]" must be/);
  const unknownEvent = parseHooksFile(file({ BeforeEverything: [] }), '.sextant/settings.json');
  assert.match(
    unknownEvent.problems[0] ?? '',
    /\.sextant\/settings\.json.*"BeforeEverything" is not an event Sextant knows/,
  );
  const broken = parseHooksFile('{"hooks": {', '.claude/settings.local.json');
  assert.match(broken.problems[0] ?? '', /^\.claude\/settings\.local\.json:1:\d+: not valid JSON/);
  const user = hooksFromValue({ Stop: 'nope' }, 'user settings (sextant.hooks)', 'user');
  assert.match(user.problems[0] ?? '', /user settings \(sextant\.hooks\)/);
  const notAnObject = hooksFromValue(['x'], 'user settings (sextant.hooks)', 'user');
  assert.match(notAnObject.problems[0] ?? '', /"hooks" must be an object/);
});

test('a "prompt" hook and newer events (SubagentStart, PostCompact) are ignored and reported; the guards load', () => {
  const parsed = parseHooksFile(
    file({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            { type: 'prompt', prompt: 'Is this command safe? $ARGUMENTS' },
            { type: 'command', command: 'guard.sh', async: false, statusMessage: 'checking' },
          ],
        },
      ],
      SubagentStart: [{ hooks: [{ type: 'command', command: 'start.sh' }] }],
      PostCompact: [
        {
          hooks: [
            { type: 'command', command: 'a.sh' },
            { type: 'command', command: 'b.sh' },
          ],
        },
      ],
      Stop: [
        {
          hooks: [
            { type: 'agent', prompt: 'verify' },
            { type: 'command', command: 'stop.sh' },
          ],
        },
      ],
    }),
    '.claude/settings.json',
  );
  assert.deepEqual(
    parsed.hooks.map((h) => `${h.event} ${h.command}`),
    ['PreToolUse guard.sh', 'Stop stop.sh'],
  );
  const problems = parsed.problems.join('\n');
  assert.match(
    problems,
    /"PreToolUse\[0\]\.hooks\[0\]" is a "prompt" hook; Sextant runs "command" hooks only, so it is ignored/,
  );
  assert.match(problems, /"SubagentStart" is a Claude Code event Sextant does not fire; its 1 hook ignored/);
  assert.match(problems, /"PostCompact" is a Claude Code event Sextant does not fire; its 2 hooks ignored/);
  assert.match(problems, /"Stop\[0\]\.hooks\[0\]" is a "agent" hook/);
  // Where the user sees it: the hooks view (the approval card's problems), beside the hooks to approve.
  const settings = new HookSettings(new HookTrust(new MemoryState()), () => true);
  settings.setWorkspaceFiles([{ file: '.claude/settings.json', text: file(parsed.raw) }]);
  const view = settings.view();
  assert.deepEqual(
    view.workspace?.hooks.map((h) => h.command),
    ['guard.sh', 'stop.sh'],
  );
  assert.equal(view.problems.length, 4);
});

test("matchers match Claude Code's tool names and ours, whole names only; mcp tools by pattern", () => {
  assert.equal(claudeToolName('bash'), 'Bash');
  assert.equal(claudeToolName('edit_file'), 'Edit');
  assert.ok(matcherMatches('Bash', 'bash'));
  assert.ok(matcherMatches('Edit|Write', 'write_file'));
  assert.ok(matcherMatches('Edit|Write', 'edit_file'));
  assert.ok(!matcherMatches('Edit', 'multi_edit'), 'a plain name matches the whole name only');
  assert.ok(matcherMatches('MultiEdit', 'multi_edit'));
  assert.ok(matcherMatches('Notebook.*', 'notebook_edit'));
  assert.ok(matcherMatches('mcp__github__.*', 'mcp__github__create_issue'));
  assert.ok(!matcherMatches('mcp__github__.*', 'mcp__gitlab__create_issue'));
  assert.ok(matcherMatches('', 'read_file'));
  assert.ok(matcherMatches('*', 'read_file'));
  assert.ok(matcherMatches('bash', 'bash'), 'our own names work too');
  assert.ok(matcherMatches('(', '('), 'an invalid expression matches as text');
});

const hook = (event: 'PreToolUse' | 'UserPromptSubmit' = 'PreToolUse') => ({
  event,
  matcher: '',
  command: 'h',
  timeoutS: 60,
  source: 'x',
  scope: 'user' as const,
});
const ran = (exitCode: number | null, stdout = '', stderr = '', more = {}) => ({
  exitCode,
  stdout,
  stderr,
  timedOut: false,
  aborted: false,
  ...more,
});

test('verdicts: exit 2 blocks with stderr, other codes and timeouts are non-blocking, JSON decides', () => {
  assert.equal(readVerdict(hook(), ran(2, '', 'no rm here')).permission, 'deny');
  assert.equal(readVerdict(hook(), ran(2, '', 'no rm here')).reason, 'no rm here');
  const failed = readVerdict(hook(), ran(1, '', 'oops'));
  assert.equal(failed.outcome, 'error');
  assert.equal(failed.permission, undefined);
  const timedOut = readVerdict(hook(), ran(null, '', '', { timedOut: true }));
  assert.equal(timedOut.outcome, 'timeout');
  assert.match(timedOut.note, /timed out after 60 s/);
  const json = (o: unknown) => readVerdict(hook(), ran(0, JSON.stringify(o)));
  const denied = json({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'policy' } });
  assert.equal(denied.permission, 'deny');
  assert.equal(denied.reason, 'policy');
  assert.equal(json({ decision: 'approve' }).permission, 'allow', "Claude Code's older word");
  assert.equal(json({ continue: false, stopReason: 'enough' }).halt, true);
  const context = readVerdict(hook('UserPromptSubmit'), ran(0, 'the sprint ends Friday\n'));
  assert.equal(context.additionalContext, 'the sprint ends Friday');
  const merged = mergeVerdicts([
    json({ hookSpecificOutput: { permissionDecision: 'allow' } }),
    json({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no' } }),
    json({ hookSpecificOutput: { permissionDecision: 'ask' } }),
  ]);
  assert.equal(merged.permission, 'deny', 'deny > ask > allow');
  assert.equal(merged.reason, 'no');
});

const judged = (decision: Decision['decision'], source: Decision['source']) => ({
  decision,
  source,
  reason: 'policy says',
  alwaysRule: 'bash(x*)',
});
const said = (permission: 'allow' | 'deny' | 'ask') => mergeVerdicts([{ ...readVerdict(hook(), ran(0)), permission }]);

test("a hook's deny is final; its allow skips only a default ask, never a rule, a protected path or the box", () => {
  for (const source of ['rule', 'default', 'protected', 'confinement'] as const) {
    const d = withHookDecision(judged('allow', source), said('deny'));
    assert.equal(d.decision, 'deny');
    assert.equal(d.source, 'hook');
    assert.equal(d.alwaysRule, undefined);
  }
  assert.equal(withHookDecision(judged('ask', 'default'), said('allow')).decision, 'allow');
  for (const source of ['rule', 'protected', 'confinement', 'parse'] as const)
    assert.equal(withHookDecision(judged('ask', source), said('allow')).decision, 'ask', `${source} ask stays`);
  assert.equal(withHookDecision(judged('deny', 'rule'), said('allow')).decision, 'deny', 'a deny rule stays');
  assert.equal(withHookDecision(judged('deny', 'rule'), said('ask')).decision, 'deny');
  const asked = withHookDecision(judged('allow', 'rule'), said('ask'));
  assert.equal(asked.decision, 'ask');
  assert.equal(asked.alwaysRule, undefined, 'no Always allow for what a hook asks');
});

class MemoryState {
  private readonly values = new Map<string, unknown>();
  get(key: string): unknown {
    return this.values.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
}

test('workspace hooks run only once approved in a trusted workspace; any change asks again', async () => {
  let trusted = false;
  const s = new HookSettings(new HookTrust(new MemoryState()), () => trusted);
  s.setUser({ Stop: [{ hooks: [{ type: 'command', command: 'user.sh' }] }] });
  const ws = (command: string) => [
    { file: '.claude/settings.json', text: file({ Stop: [{ hooks: [{ type: 'command', command }] }] }) },
  ];
  s.setWorkspaceFiles(ws('repo.sh'));
  assert.deepEqual(
    s.inForce().map((h) => h.command),
    ['user.sh'],
  );
  assert.equal(s.view().workspace?.state, 'untrusted');
  const hash = s.view().workspace?.hash ?? '';
  assert.equal(await s.decide(hash, true), false, 'nothing is approved in an untrusted workspace');
  trusted = true;
  assert.equal(s.view().workspace?.state, 'pending');
  assert.equal(await s.decide('stale', true), false, 'an answer about another configuration is ignored');
  assert.equal(await s.decide(hash, true), true);
  assert.deepEqual(
    s.inForce().map((h) => h.command),
    ['user.sh', 'repo.sh'],
  );
  s.setWorkspaceFiles(ws('repo.sh --more'));
  assert.equal(s.view().workspace?.state, 'pending');
  assert.equal(s.view().workspace?.changed, true);
  assert.deepEqual(
    s.inForce().map((h) => h.command),
    ['user.sh'],
  );
  assert.notEqual(s.view().workspace?.hash, hash);
});

test("no hook's allow while no sandbox works: the refusal is for commands only, and keeps the ask", () => {
  const none = hookAllowRefusal('bash', { mode: 'auto', active: false, reason: 'bwrap is missing' });
  assert.match(none ?? '', /a hook allowed this, but no sandbox works here \(bwrap is missing\), so Sextant asks/);
  assert.match(hookAllowRefusal('bash', { mode: 'off', active: false }) ?? '', /sextant\.sandbox\.mode is off/);
  assert.equal(hookAllowRefusal('bash', { mode: 'box', active: true }), undefined);
  assert.equal(hookAllowRefusal('write_file', { mode: 'auto', active: false }), undefined, 'not a command');
  const d = withHookDecision(judged('ask', 'default'), said('allow'), none);
  assert.equal(d.decision, 'ask');
  assert.match(d.reason, /policy says; a hook allowed this, but no sandbox works here/);
  assert.equal(withHookDecision(judged('ask', 'default'), said('deny'), none).decision, 'deny', 'a deny still holds');
});

test("the scripts a hook runs: the program and an interpreter's script inside the workspace, not data files", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hook scripts-')));
  mkdirSync(join(root, 'scripts'));
  for (const f of ['scripts/x.sh', 'scripts/y.py', 'guard.js', 'data.json']) writeFileSync(join(root, f), `${f}\n`);
  const files = (command: string) =>
    workspaceScriptsDigest(command, root)
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('=')[0]);
  assert.deepEqual(files('./scripts/x.sh'), ['scripts/x.sh']);
  assert.deepEqual(files('bash scripts/x.sh --fast'), ['scripts/x.sh']);
  assert.deepEqual(files('FOO=1 python3 -u scripts/y.py data.json'), ['scripts/y.py']);
  assert.deepEqual(files('node "$CLAUDE_PROJECT_DIR"/guard.js'), ['guard.js']);
  assert.deepEqual(files('cat data.json | ./scripts/x.sh && deno run guard.js'), ['guard.js', 'scripts/x.sh']);
  assert.deepEqual(files('jq . data.json'), [], 'a data file is not what runs');
  assert.deepEqual(files('/bin/true'), [], 'outside the workspace');
  const before = workspaceScriptsDigest('./scripts/x.sh', root);
  writeFileSync(join(root, 'scripts/x.sh'), 'changed\n');
  assert.notEqual(workspaceScriptsDigest('./scripts/x.sh', root), before);
});

test("a workspace hook's if is part of what is approved: changing it asks again", async () => {
  const s = new HookSettings(new HookTrust(new MemoryState()), () => true);
  const ws = (cond: string) => [
    {
      file: '.claude/settings.json',
      text: file({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'ok.sh', if: cond }] }] }),
    },
  ];
  s.setWorkspaceFiles(ws('Bash(git status*)'));
  assert.equal(s.view().workspace?.hooks[0]?.if, 'Bash(git status*)', 'the card shows it');
  assert.ok(await s.decide(s.view().workspace?.hash ?? '', true));
  s.setWorkspaceFiles(ws('Bash(*)'));
  assert.equal(s.view().workspace?.state, 'pending');
  assert.equal(s.view().workspace?.changed, true);
});

test("if: Claude Code's rule forms read with the permission parser; paths and commands judged both ways", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hook-if-')));
  const policy = createPolicy({
    user: {},
    workspaceFolders: [root],
    home: '/nonexistent-home',
    tools: declaredToolFacts(),
  });
  const c = new HookConditions();
  const rules = (text: string) => {
    const p = parseHookCondition(text);
    assert.ok(p.ok, text);
    return p.rules;
  };
  const bash = (cond: string, command: string) => c.match(rules(cond), { tool: 'bash', input: { command } }, policy);
  assert.equal(bash('Bash(git status:*)', 'git status'), 'all');
  assert.equal(bash('Bash(git status:*)', 'git status --short'), 'all');
  assert.equal(bash('Bash(git status:*)', 'git push'), 'none');
  assert.equal(bash('Bash(git status*)', 'git status && npm publish'), 'some');
  assert.notEqual(bash('Bash(git push*)', 'FOO=1 git push origin main'), 'none');
  assert.equal(bash('Bash(git push*)', 'git $verb origin main'), 'some', 'a word known only at run time');
  const edit = (file_path: string) =>
    c.match(rules('Edit(src/**)'), { tool: 'edit_file', input: { file_path: join(root, file_path) } }, policy);
  assert.equal(edit('src/a.ts'), 'all');
  assert.equal(edit('docs/a.md'), 'none');
  for (const bad of ['Bash(git push', 'Nope(x)', ''])
    assert.equal(parseHookCondition(bad).ok, false, `${JSON.stringify(bad)} cannot be read`);
});
