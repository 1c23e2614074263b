import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  discoverRules,
  importsIn,
  nestedRulesFor,
  RULES_FILE_CAP_CHARS,
} from '../../../extension/core/extensions/rules';
import { rulesSection } from '../../../extension/core/extensions/project-prompt';
import { projectOnDisk, write } from './helpers';

test('rules files in a fixed order: user, root AGENTS/CLAUDE, .sextant/rules sorted, SOUL, TOOLS', async () => {
  const p = await projectOnDisk(
    {
      'TOOLS.md': 'tools rules',
      'SOUL.md': 'soul rules',
      '.sextant/rules/b.md': 'rule b',
      '.sextant/rules/a.md': 'rule a',
      '.sextant/rules/notes.txt': 'not markdown',
      'CLAUDE.md': 'claude rules',
      'AGENTS.md': 'agents rules',
      '.claude/CLAUDE.md': 'claude folder rules',
    },
    { '.sextant/AGENTS.md': 'my own rules', '.claude/CLAUDE.md': 'my claude rules' },
  );
  const rules = await discoverRules(p.files);
  assert.deepEqual(
    rules.map((r) => r.label),
    [
      '~/.sextant/AGENTS.md',
      '~/.claude/CLAUDE.md',
      'AGENTS.md',
      'CLAUDE.md',
      '.claude/CLAUDE.md',
      '.sextant/rules/a.md',
      '.sextant/rules/b.md',
      'SOUL.md',
      'TOOLS.md',
    ],
  );
  assert.deepEqual(
    rules.map((r) => r.scope),
    ['user', 'user', 'workspace', 'workspace', 'workspace', 'workspace', 'workspace', 'workspace', 'workspace'],
  );
  assert.ok(rules.every((r) => r.tokens > 0));
  const section = rulesSection(rules);
  assert.match(section, /<rules file="AGENTS.md">\nagents rules\n<\/rules>/);
  assert.ok(section.indexOf('my own rules') < section.indexOf('agents rules'));
});

test('no rules files: nothing is added to the prompt', async () => {
  const p = await projectOnDisk({ 'src/a.ts': 'x' });
  assert.deepEqual(await discoverRules(p.files), []);
  assert.equal(rulesSection([]), '');
});

test('a file over the cap is cut with a note saying how much was left out', async () => {
  const big = `${'x'.repeat(RULES_FILE_CAP_CHARS)}TAIL-NOT-SENT`;
  const p = await projectOnDisk({ 'AGENTS.md': big });
  const [r] = await discoverRules(p.files);
  assert.ok(r);
  assert.equal(r.cutFrom, big.length);
  assert.ok(!r.text.includes('TAIL-NOT-SENT'));
  assert.match(r.text, /AGENTS\.md was cut here — it has 20,013 characters and only the first 20,000 are given/);
});

test('CLAUDE.md that repeats AGENTS.md (a copy or a link) is given once', async () => {
  const p = await projectOnDisk({ 'AGENTS.md': 'same rules\n' });
  await fs.symlink(path.join(p.root, 'AGENTS.md'), path.join(p.root, 'CLAUDE.md'));
  const rules = await discoverRules(p.files);
  assert.deepEqual(
    rules.map((r) => r.label),
    ['AGENTS.md'],
  );
});

test('@path imports in CLAUDE.md are followed inside the workspace, not outside it, not in code', async () => {
  const p = await projectOnDisk({
    'CLAUDE.md':
      'See @docs/style.md and @AGENTS.md.\nMail me@example.com. `@not/this.md`\n```\n@nor/this.md\n```\n@../outside.md',
    'AGENTS.md': 'agents',
    'docs/style.md': 'style guide, and @./deeper.md',
    'docs/deeper.md': 'deeper',
    'nor/this.md': 'fenced',
    'not/this.md': 'span',
  });
  await write(path.join(path.dirname(p.root), 'outside.md'), 'secret outside');
  const rules = await discoverRules(p.files);
  const labels = rules.map((r) => r.label);
  assert.deepEqual(labels.slice(0, 4), ['AGENTS.md', 'CLAUDE.md', 'docs/style.md', 'docs/deeper.md']);
  assert.ok(!labels.includes('nor/this.md') && !labels.includes('not/this.md'));
  const refused = rules.find((r) => r.note?.includes('outside'));
  assert.ok(refused, 'the outside import is reported');
  assert.equal(refused.text, '');
  assert.ok(!rulesSection(rules).includes('secret outside'));
});

test('importsIn finds Claude Code import tokens only', () => {
  assert.deepEqual(importsIn('@a.md then @~/x/y.md, and a@b.c; `@c.md`'), ['a.md', '~/x/y.md']);
});

test('a change to a rules file is picked up by the next discovery', async () => {
  const p = await projectOnDisk({ 'AGENTS.md': 'first version' });
  assert.match(rulesSection(await discoverRules(p.files)), /first version/);
  await fs.writeFile(path.join(p.root, 'AGENTS.md'), 'second version');
  assert.match(rulesSection(await discoverRules(p.files)), /second version/);
});

test('nested AGENTS.md / CLAUDE.md between the root and a file are given once each, outermost first', async () => {
  const p = await projectOnDisk({
    'AGENTS.md': 'root (already in the prompt)',
    'packages/AGENTS.md': 'packages rules',
    'packages/ui/CLAUDE.md': 'ui rules',
    'packages/ui/src/button.ts': 'x',
    'other/file.ts': 'x',
  });
  const given = new Set<string>();
  const first = await nestedRulesFor(p.files, path.join(p.root, 'packages/ui/src/button.ts'), given);
  assert.deepEqual(
    first.map((r) => [r.label, r.scope, r.text]),
    [
      ['packages/AGENTS.md', 'nested', 'packages rules'],
      ['packages/ui/CLAUDE.md', 'nested', 'ui rules'],
    ],
  );
  assert.deepEqual(await nestedRulesFor(p.files, path.join(p.root, 'packages/ui/x.ts'), given), []);
  assert.deepEqual(await nestedRulesFor(p.files, path.join(p.root, 'other/file.ts'), given), []);
  assert.deepEqual(await nestedRulesFor(p.files, '/somewhere/else.ts', given), []);
});

test('the rules files are read at once, yet come in prompt order whatever read finished first', async () => {
  const p = await projectOnDisk(
    {
      'AGENTS.md': 'agents rules',
      'CLAUDE.md': 'claude rules',
      '.sextant/rules/a.md': 'rule a',
      'TOOLS.md': 'tools rules',
    },
    { '.sextant/AGENTS.md': 'my own rules' },
  );
  // Reads that finish in reverse order of starting, and a count of how many are under way together.
  let inFlight = 0;
  let most = 0;
  let started = 0;
  const slow: typeof p.files = {
    ...p.files,
    async readText(abs, maxBytes) {
      inFlight++;
      most = Math.max(most, inFlight);
      const delay = 40 - Math.min(started++, 39);
      await new Promise((r) => setTimeout(r, delay));
      try {
        return await p.files.readText(abs, maxBytes);
      } finally {
        inFlight--;
      }
    },
  };
  const rules = await discoverRules(slow);
  assert.ok(most >= 5, `the candidate files are read together (at most ${most} at once)`);
  assert.deepEqual(
    rules.map((r) => r.label),
    ['~/.sextant/AGENTS.md', 'AGENTS.md', 'CLAUDE.md', '.sextant/rules/a.md', 'TOOLS.md'],
  );
  assert.deepEqual(rules, await discoverRules(p.files), 'the same as read one by one');
});
