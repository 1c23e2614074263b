import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  commandDirs,
  expandTemplate,
  markdownCommandSource,
  parseInvocation,
  SlashCommandRegistry,
  splitArguments,
  type SlashCommand,
} from '../../../extension/core/extensions/slash-commands';
import { expandPrompt } from '../../../extension/core/extensions/prompt-expansion';
import { parseFrontmatter, fieldList } from '../../../extension/core/extensions/frontmatter';
import { ProjectContext } from '../../../extension/core/extensions/project-context';
import { projectOnDisk, write } from './helpers';

test('templating: $ARGUMENTS, $1…$9 with quotes, missing positions empty, arguments appended otherwise', () => {
  assert.equal(expandTemplate('Explain $ARGUMENTS.', 'src/a.ts  and b'), 'Explain src/a.ts  and b.');
  assert.equal(
    expandTemplate('Fix #$1 with priority $2 ($3)', '123 "very high"'),
    'Fix #123 with priority very high ()',
  );
  assert.equal(expandTemplate('Review the code.', 'src/ui'), 'Review the code.\n\nARGUMENTS: src/ui');
  assert.equal(expandTemplate('Review the code.', ''), 'Review the code.');
  assert.equal(expandTemplate('$1$1 and $ARGUMENTS', 'x y'), 'xx and x y');
  assert.deepEqual(splitArguments(`a 'b c' "d e" f`), ['a', 'b c', 'd e', 'f']);
});

test('parseInvocation: names with namespaces; paths and prose are not commands', () => {
  assert.deepEqual(parseInvocation('/explain src'), { name: 'explain', args: 'src' });
  assert.deepEqual(parseInvocation('/frontend:review  the button\nplease'), {
    name: 'frontend:review',
    args: 'the button\nplease',
  });
  assert.deepEqual(parseInvocation('/init'), { name: 'init', args: '' });
  assert.equal(parseInvocation('/usr/bin is where?'), undefined);
  assert.equal(parseInvocation('explain /src'), undefined);
});

test('frontmatter: strings, quoted values, [lists], - lists and Claude Code tool rules with commas', () => {
  const fm = parseFrontmatter(
    '---\ndescription: "Review: carefully"\nargument-hint: [file] [focus]\n' +
      'allowed-tools: Bash(git add:*, git status:*), Read\n' +
      'tags:\n  - a\n  - b\n---\nBody $1\n',
  );
  assert.equal(fm.fields.description, 'Review: carefully');
  assert.equal(fm.fields['argument-hint'], '[file] [focus]');
  assert.deepEqual(fieldList(parseFrontmatter('---\ntools: [Read, Grep]\n---\n'), 'tools'), ['Read', 'Grep']);
  assert.deepEqual(fieldList(fm, 'allowed-tools'), ['Bash(git add:*, git status:*)', 'Read']);
  assert.deepEqual(fm.fields.tags, ['a', 'b']);
  assert.equal(fm.body, 'Body $1\n');
  assert.deepEqual(parseFrontmatter('no frontmatter\n---\n'), { fields: {}, body: 'no frontmatter\n---\n' });
});

test('commands from .sextant, .claude and the home folder; subfolders namespace; workspace wins a clash', async () => {
  const p = await projectOnDisk(
    {
      '.claude/commands/explain.md':
        '---\ndescription: Explain code\nargument-hint: <path>\nmodel: fast/mini\n---\nExplain what $ARGUMENTS does.',
      '.claude/commands/frontend/review.md': 'Review the frontend component $1 for $2.',
      '.sextant/commands/explain.md': '---\ndescription: Sextant explain wins\n---\nSextant: $ARGUMENTS',
      '.sextant/commands/notes.txt': 'not a command',
    },
    {
      '.claude/commands/explain.md': 'user explain',
      '.sextant/commands/git/commit.md': '---\ndescription: Commit\n---\nCommit with message $ARGUMENTS',
    },
  );
  const registry = new SlashCommandRegistry();
  registry.add(markdownCommandSource(p.files, () => commandDirs(p.files)));
  const list = await registry.list();
  assert.deepEqual(
    list.map((c) => [c.name, c.source]),
    [
      ['explain', '.sextant/commands'],
      ['frontend:review', '.claude/commands'],
      ['git:commit', '~/.sextant/commands'],
    ],
  );
  const explain = list[0] as SlashCommand;
  assert.equal(explain.description, 'Sextant explain wins');
  assert.equal(
    await (list[1] as SlashCommand).expand('Button.tsx accessibility'),
    'Review the frontend component Button.tsx for accessibility.',
  );
});

test('expandPrompt: a command becomes its prompt with its model; unknown and built-in names are refused', async () => {
  const p = await projectOnDisk({
    '.claude/commands/explain.md': '---\ndescription: Explain\nmodel: fast/mini\n---\nExplain what $ARGUMENTS does.',
  });
  const project = new ProjectContext(p.files);
  assert.deepEqual(await expandPrompt(project.commands, '/explain src'), {
    ok: true,
    text: 'Explain what src does.',
    command: 'explain',
    model: 'fast/mini',
  });
  assert.deepEqual(await expandPrompt(project.commands, 'plain text'), { ok: true, text: 'plain text' });
  const unknown = await expandPrompt(project.commands, '/nosuch thing');
  assert.equal(unknown.ok, false);
  assert.match(unknown.ok ? '' : unknown.message, /Unknown command \/nosuch/);
  assert.equal((await expandPrompt(project.commands, '/clear')).ok, false);
  // An edit after the menu was listed counts when the command is used.
  await write(path.join(p.root, '.claude/commands/explain.md'), 'Now: $ARGUMENTS');
  assert.deepEqual(await expandPrompt(project.commands, '/explain x'), {
    ok: true,
    text: 'Now: x',
    command: 'explain',
  });
});

test('the registry takes more sources (MCP prompts) after the Markdown ones, first name wins', async () => {
  const p = await projectOnDisk({ '.claude/commands/review.md': 'file review' });
  const project = new ProjectContext(p.files);
  project.commands.add({
    list: async () => [
      { name: 'review', description: 'mcp review', source: 'mcp: s', expand: async () => 'mcp' },
      { name: 'mcp__s__hello', description: 'hello', source: 'mcp: s', expand: async (a) => `hello ${a}` },
    ],
  });
  const info = await project.info();
  assert.deepEqual(
    info.commands.map((c) => [c.name, c.source]),
    [
      ['mcp__s__hello', 'mcp: s'],
      ['review', '.claude/commands'],
    ],
  );
  assert.deepEqual(await expandPrompt(project.commands, '/mcp__s__hello you'), {
    ok: true,
    text: 'hello you',
    command: 'mcp__s__hello',
  });
});
