import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoverSkills, loadSkill, skillsSection } from '../../../extension/core/extensions/skills';
import { createSkillTool } from '../../../extension/core/extensions/skill-tool';
import { createNodePorts, makeContext, textOf } from '../../fixtures/node-ports';
import { projectOnDisk } from './helpers';

const PDF_SKILL =
  '---\nname: pdf-forms\ndescription: Fill in PDF forms. Use when the user gives a PDF with fields.\n---\n' +
  '# PDF forms\nRun `python scripts/fill.py <pdf>`; see reference/fields.md for field names.\n';

test('skills from .sextant/skills, .claude/skills and the home folders; workspace first', async () => {
  const p = await projectOnDisk(
    {
      '.claude/skills/pdf/SKILL.md': PDF_SKILL,
      '.claude/skills/pdf/scripts/fill.py': 'print(1)',
      '.claude/skills/pdf/reference/fields.md': 'Field names: a, b',
      '.sextant/skills/changelog/SKILL.md': '---\nname: changelog\ndescription: Write changelog entries\n---\nBody',
      '.claude/skills/empty/README.md': 'no SKILL.md: not a skill',
    },
    {
      '.claude/skills/pdf-user/SKILL.md': '---\nname: pdf-forms\ndescription: the user copy\n---\nx',
      '.sextant/skills/mine/SKILL.md': '---\ndescription: My skill without a name\n---\nMine',
    },
  );
  const skills = await discoverSkills(p.files);
  assert.deepEqual(
    skills.map((s) => [s.name, s.label, s.scope]),
    [
      ['changelog', '.sextant/skills/changelog', 'workspace'],
      ['pdf-forms', '.claude/skills/pdf', 'workspace'],
      ['mine', '~/.sextant/skills/mine', 'user'],
    ],
  );
  const section = skillsSection(skills);
  assert.match(section, /^# Skills/);
  assert.match(section, /- pdf-forms: Fill in PDF forms\. Use when the user gives a PDF with fields\./);
  // Only names and descriptions: no body in the prompt.
  assert.ok(!section.includes('fill.py'));
  assert.equal(skillsSection([]), '');
});

test('the skill tool loads a body with its files, then a file on demand; nothing outside its folder', async () => {
  const p = await projectOnDisk({
    '.claude/skills/pdf/SKILL.md': PDF_SKILL,
    '.claude/skills/pdf/scripts/fill.py': 'print(1)',
    '.claude/skills/pdf/reference/fields.md': 'Field names: a, b',
    'secret.txt': 'not for skills',
  });
  const tool = createSkillTool(p.files);
  const ctx = makeContext(createNodePorts({ root: p.root }));
  const body = await tool.execute({ name: 'pdf-forms' }, ctx);
  assert.equal(body.isError, false);
  const text = textOf(body);
  assert.match(text, /Skill "pdf-forms" — folder .*\.claude\/skills\/pdf/);
  assert.match(text, /- reference\/fields\.md\n- scripts\/fill\.py/);
  assert.match(text, /# PDF forms\nRun `python scripts\/fill\.py <pdf>`/);
  assert.ok(!text.includes('description:'), 'frontmatter is not repeated');
  const file = await tool.execute({ name: 'pdf-forms', file: 'reference/fields.md' }, ctx);
  assert.equal(textOf(file), 'Field names: a, b');
  const outside = await tool.execute({ name: 'pdf-forms', file: '../../../secret.txt' }, ctx);
  assert.equal(outside.isError, true);
  assert.match(textOf(outside), /outside the skill's folder/);
  const missing = await tool.execute({ name: 'nope' }, ctx);
  assert.equal(missing.isError, true);
  assert.match(textOf(missing), /No skill named "nope"\. Skills available: pdf-forms\./);
  const skills = await discoverSkills(p.files);
  const noFile = await loadSkill(p.files, skills[0]!, 'reference/none.md');
  assert.equal(noFile.ok, false);
});
