// Sub-agent definitions in Claude Code's format, from the workspace, the user's folder and the built-ins:
// the fields, the tool names mapped, a bad file reported by name while the others still load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUILTIN_AGENTS,
  disallowedToolNamesOf,
  discoverAgents,
  parseAgentDefinition,
  toolNamesOf,
} from '../../../extension/core/extensions/agent-definitions';
import { parseSubagentSettings } from '../../../extension/core/config/subagent-settings';
import { projectOnDisk } from './helpers';

const CLAUDE_REVIEWER = `---
name: code-reviewer
description: Expert code review specialist. Use proactively after code changes.
tools: Read, Grep, Glob, Bash
model: inherit
---
You are a senior code reviewer.
`;

test("a Claude Code definition: name, description, tools mapped to Sextant's, model inherit", () => {
  const r = parseAgentDefinition(CLAUDE_REVIEWER, '.claude/agents/code-reviewer.md');
  assert.ok(r.ok);
  assert.equal(r.agent.name, 'code-reviewer');
  assert.equal(r.agent.description, 'Expert code review specialist. Use proactively after code changes.');
  assert.deepEqual(r.agent.tools, ['read_file', 'grep', 'glob', 'bash', 'bash_output', 'kill_shell']);
  assert.equal(r.agent.model, undefined, 'inherit: the parent model');
  assert.equal(r.agent.prompt, 'You are a senior code reviewer.');
  assert.equal(r.agent.source, '.claude/agents/code-reviewer.md');
});

test('tools: a list, Sextant names, rules with patterns, omitted (all the parent has) or empty (none)', () => {
  assert.deepEqual(toolNamesOf(['Read', 'Bash(git diff:*)', 'web_fetch', 'mcp__gh__search']), [
    'read_file',
    'bash',
    'bash_output',
    'kill_shell',
    'web_fetch',
    'mcp__gh__search',
  ]);
  const listed = parseAgentDefinition('---\nname: a\ndescription: d\ntools:\n  - Grep\n  - LS\n---\nbody', 'a.md');
  assert.ok(listed.ok);
  assert.deepEqual(listed.agent.tools, ['grep', 'ls']);
  const omitted = parseAgentDefinition(
    '---\nname: a\ndescription: d\nmode: plan\nmodel: fast/small\n---\nbody',
    'a.md',
  );
  assert.ok(omitted.ok);
  assert.equal(omitted.agent.tools, undefined);
  assert.equal(omitted.agent.mode, 'plan');
  assert.equal(omitted.agent.model, 'fast/small');
  const none = parseAgentDefinition('---\nname: a\ndescription: d\ntools: []\n---\nbody', 'a.md');
  assert.ok(none.ok);
  assert.deepEqual(none.agent.tools, []);
});

test('bad frontmatter: a clear error that names the file', () => {
  const cases: Array<[string, RegExp]> = [
    ['just a prompt, no frontmatter', /no frontmatter/],
    ['---\nname: x\ndescription: y\nno closing line', /not closed/],
    ['---\ndescription: y\n---\nbody', /no "name"/],
    ['---\nname: Bad Name!\ndescription: y\n---\nbody', /must be lower-case/],
    ['---\nname: x\n---\nbody', /no "description"/],
    ['---\nname: x\ndescription: y\nmode: yolo\n---\nbody', /must be plan .* or agent/],
    ['---\nname: x\ndescription: y\n---\n   \n', /body .* is empty/],
  ];
  for (const [text, why] of cases) {
    const r = parseAgentDefinition(text, '.sextant/agents/broken.md');
    assert.ok(!r.ok, text);
    assert.equal(r.problem.file, '.sextant/agents/broken.md');
    assert.match(r.problem.message, /^\.sextant\/agents\/broken\.md: /);
    assert.match(r.problem.message, why);
  }
});

test('discovery: workspace before user before built-ins; a bad file is reported and the rest still load', async () => {
  const { files } = await projectOnDisk(
    {
      '.sextant/agents/explore.md': '---\nname: explore\ndescription: my own explorer\n---\nExplore my way.',
      '.claude/agents/code-reviewer.md': CLAUDE_REVIEWER,
      '.claude/agents/broken.md': '---\nname: broken\n---\nno description',
      '.claude/agents/notes.txt': 'not a definition',
    },
    {
      '.claude/agents/helper.md': '---\nname: helper\ndescription: from home\n---\nHelp.',
      '.sextant/agents/code-reviewer.md': '---\nname: code-reviewer\ndescription: the user one\n---\nx',
    },
  );
  const { agents, problems } = await discoverAgents(files);
  const by = new Map(agents.map((a) => [a.name, a]));
  assert.equal(by.get('explore')?.description, 'my own explorer', 'the workspace overrides the built-in');
  assert.equal(by.get('code-reviewer')?.source, '.claude/agents/code-reviewer.md', 'the workspace wins over home');
  assert.equal(by.get('helper')?.source, '~/.claude/agents/helper.md');
  assert.equal(by.get('researcher')?.source, 'built-in');
  assert.equal(by.get('reviewer')?.source, 'built-in');
  assert.ok(!by.has('broken'));
  assert.deepEqual(
    problems.map((p) => p.file),
    ['.claude/agents/broken.md'],
  );
  assert.match(problems[0]?.message ?? '', /broken\.md: the frontmatter has no "description"/);
});

test('the built-ins: explore and reviewer are read-only, researcher reaches the web only', () => {
  const by = new Map(BUILTIN_AGENTS.map((a) => [a.name, a]));
  assert.deepEqual(by.get('explore')?.tools, ['read_file', 'grep', 'glob', 'ls']);
  assert.equal(by.get('explore')?.mode, 'plan');
  assert.deepEqual(by.get('reviewer')?.tools, ['read_file', 'grep', 'glob', 'ls']);
  assert.match(by.get('reviewer')?.prompt ?? '', /Security pass/);
  assert.deepEqual(by.get('researcher')?.tools, ['web_search', 'web_fetch']);
});

test('settings: sextant.agents.* clamped with defaults; the spend rate off unless set', () => {
  assert.deepEqual(parseSubagentSettings({}), {
    maxConcurrent: 4,
    maxSteps: 25,
    maxCostUsd: 1,
    maxCostUsdPerMinute: undefined,
  });
  assert.deepEqual(
    parseSubagentSettings({ maxConcurrent: 99, maxSteps: 0, maxCostUsd: null, maxCostUsdPerMinute: 0.5 }),
    { maxConcurrent: 16, maxSteps: 1, maxCostUsd: undefined, maxCostUsdPerMinute: 0.5 },
  );
  assert.equal(parseSubagentSettings({ maxConcurrent: 'x' }).maxConcurrent, 4);
});

test('disallowedTools: Claude Code names mapped; one file writer taken away takes them all; with tools too', () => {
  const r = parseAgentDefinition(
    '---\nname: ro\ndescription: d\ndisallowedTools: Write, Edit, Bash\n---\nbody',
    '.claude/agents/ro.md',
  );
  assert.ok(r.ok);
  assert.equal(r.agent.tools, undefined, 'no allow-list: every tool of the mode, less the disallowed');
  assert.deepEqual([...(r.agent.disallowedTools ?? [])].sort(), [
    'bash',
    'bash_output',
    'edit_file',
    'kill_shell',
    'multi_edit',
    'notebook_edit',
    'rename',
    'write_file',
  ]);
  const both = parseAgentDefinition(
    '---\nname: b\ndescription: d\ntools: [Read, Grep, WebFetch]\n' +
      'disallowedTools:\n  - WebFetch\n  - mcp__github\n---\nbody',
    'b.md',
  );
  assert.ok(both.ok);
  assert.deepEqual(both.agent.tools, ['read_file', 'grep', 'web_fetch']);
  assert.deepEqual(both.agent.disallowedTools, ['web_fetch', 'mcp__github']);
  assert.deepEqual(
    disallowedToolNamesOf(['Bash(git push:*)']),
    ['bash', 'bash_output', 'kill_shell'],
    'a pattern takes the whole tool',
  );
});
