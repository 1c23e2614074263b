// Frontmatter as YAML: the shapes real published files use (Anthropic's skills, Claude Code's agents and
// commands), the flat API the callers keep, and broken or hostile headers reported with their line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FRONTMATTER_MAX_BYTES,
  fieldList,
  fieldText,
  parseFrontmatter,
} from '../../../extension/core/extensions/frontmatter';
import { parseAgentDefinition } from '../../../extension/core/extensions/agent-definitions';
import { discoverSkills, skillsSection } from '../../../extension/core/extensions/skills';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { expandPrompt } from '../../../extension/core/extensions/prompt-expansion';
import { projectOnDisk } from './helpers';

// The shape of anthropics/skills' SKILL.md files: a folded multi-line description, a license, tools.
const PUBLISHED_SKILL = `---
name: webapp-testing
description: >-
  Toolkit for interacting with and testing local web applications using Playwright.
  Supports verifying frontend functionality, debugging UI behavior, capturing browser
  screenshots, and viewing browser logs.
license: Complete terms in LICENSE.txt
allowed-tools:
  - Bash(python scripts/with_server.py:*)
  - Read
---

# Web Application Testing

To test local web applications, write native Python Playwright scripts.
`;

// The shape of a Claude Code agent file as people write them: comments, and a model alias with one.
const AGENT_FILE = `---
# Reviews code after every change.
name: code-reviewer
description: "Expert code reviewer.\\tUse proactively after writing code."
tools: Read, Grep, Glob
model: opus  # the strongest model for reviews
---
You are a senior code reviewer.
`;

test('a published SKILL.md: the folded description is its text, not ">-"; license and a tools list read', () => {
  const fm = parseFrontmatter(PUBLISHED_SKILL);
  assert.equal(fm.problem, undefined);
  assert.equal(
    fieldText(fm, 'description'),
    'Toolkit for interacting with and testing local web applications using Playwright. Supports verifying ' +
      'frontend functionality, debugging UI behavior, capturing browser screenshots, and viewing browser logs.',
  );
  assert.equal(fieldText(fm, 'license'), 'Complete terms in LICENSE.txt');
  assert.deepEqual(fieldList(fm, 'allowed-tools'), ['Bash(python scripts/with_server.py:*)', 'Read']);
  assert.match(fm.body, /^\n# Web Application Testing/);
});

test('the skills list the model gets has the whole description of a block-scalar skill', async () => {
  const p = await projectOnDisk({ '.claude/skills/webapp-testing/SKILL.md': PUBLISHED_SKILL });
  const [skill] = await discoverSkills(p.files);
  assert.equal(skill?.name, 'webapp-testing');
  assert.match(
    skillsSection(skill ? [skill] : []),
    /- webapp-testing: Toolkit for interacting .* viewing browser logs\./,
  );
  assert.doesNotMatch(skillsSection(skill ? [skill] : []), />-/);
});

test('an agent file: a comment after the model is not part of it, comment lines are skipped, "\\t" is a tab', () => {
  const fm = parseFrontmatter(AGENT_FILE);
  assert.equal(fieldText(fm, 'model'), 'opus');
  assert.equal(fieldText(fm, 'description'), 'Expert code reviewer.\tUse proactively after writing code.');
  assert.deepEqual(fieldList(fm, 'tools'), ['Read', 'Grep', 'Glob']);
  const parsed = parseAgentDefinition(AGENT_FILE, '.claude/agents/code-reviewer.md');
  assert.ok(parsed.ok);
  assert.equal(parsed.agent.model, 'opus');
  assert.deepEqual(parsed.agent.tools, ['read_file', 'grep', 'glob']);
});

test('values keep the callers\u2019 shape: tools as a YAML list or comma string; numbers, booleans as text', () => {
  const asList = parseFrontmatter('---\nallowed-tools:\n  - Bash(git add:*)\n  - Read\n---\n');
  const asString = parseFrontmatter('---\nallowed-tools: Bash(git add:*), Read\n---\n');
  const asFlow = parseFrontmatter('---\nallowed-tools: [Bash(git add:*), Read]\n---\n');
  for (const fm of [asList, asString, asFlow])
    assert.deepEqual(fieldList(fm, 'allowed-tools'), ['Bash(git add:*)', 'Read']);
  const scalars = parseFrontmatter('---\nversion: 1.5\ndisable-model-invocation: true\nempty:\nName: X\n---\n');
  assert.deepEqual(scalars.fields, { version: '1.5', 'disable-model-invocation': 'true', empty: '', name: 'X' });
  // Claude Code's documented hints are not YAML (`[pr-number] [priority]`): read as the text they are.
  const hint = parseFrontmatter('---\nargument-hint: [pr-number] [priority] [assignee]\ndescription: Fix\n---\n');
  assert.equal(hint.problem, undefined);
  assert.equal(fieldText(hint, 'argument-hint'), '[pr-number] [priority] [assignee]');
  assert.equal(fieldText(parseFrontmatter('---\nargument-hint: [message]\n---\n'), 'argument-hint'), '[message]');
});

test('broken YAML: a problem naming the line; the agent, skill and command say so, the rest load', async () => {
  const broken = '---\nname: bad\ndescription: "never closed\nmodel: opus\n---\nBody\n';
  const fm = parseFrontmatter(broken);
  assert.deepEqual(fm.fields, {});
  // YAML finds an unclosed quote where the header ends: the line named is inside the header.
  assert.equal(fm.problem, 'line 4: Missing closing "quote');
  const agent = parseAgentDefinition(broken, '.claude/agents/bad.md');
  assert.ok(!agent.ok);
  assert.match(agent.problem.message, /^\.claude\/agents\/bad\.md: the frontmatter is not valid YAML: line \d+: /);

  const mapping = '---\ndescription: a: b: c\n  - x\n---\nBody\n';
  const p = await projectOnDisk({
    '.claude/skills/bad/SKILL.md': mapping,
    '.claude/skills/good/SKILL.md': PUBLISHED_SKILL,
    '.claude/commands/bad.md': mapping,
    '.claude/commands/good.md': '---\ndescription: Good one\n---\nDo it.',
  });
  const skills = await discoverSkills(p.files);
  const bad = skills.find((s) => s.name === 'bad');
  assert.match(bad?.problem ?? '', /^\.claude\/skills\/bad\/SKILL\.md: line 2: Nested mappings/);
  assert.doesNotMatch(skillsSection(skills), /- bad:/, 'a broken skill is not listed to the model');
  assert.match(skillsSection(skills), /- webapp-testing:/);
  const project = new ProjectContext(p.files);
  const info = await project.info();
  assert.match(
    info.commands.find((c) => c.name === 'bad')?.description ?? '',
    /^Not loaded: \.claude\/commands\/bad\.md: line \d+: /,
  );
  assert.equal(info.commands.find((c) => c.name === 'good')?.description, 'Good one');
  const run = await expandPrompt(project.commands, '/bad');
  assert.ok(!run.ok);
  assert.match(run.message, /^The command \/bad cannot run: \.claude\/commands\/bad\.md: line \d+: /);
});

test('hostile headers: an alias bomb and an oversized block are refused with a clear problem, not expanded', () => {
  const bomb = [
    '---',
    'a: &a ["x","x","x","x","x","x","x","x","x"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    '---',
    'Body',
  ].join('\n');
  const fm = parseFrontmatter(bomb);
  assert.deepEqual(fm.fields, {});
  assert.match(fm.problem ?? '', /too many aliases/);
  const big = `---\ndescription: ${'x'.repeat(FRONTMATTER_MAX_BYTES)}\n---\nBody`;
  const large = parseFrontmatter(big);
  assert.equal(large.problem, 'the frontmatter is larger than 64 KB');
  assert.equal(large.body, 'Body');
});
