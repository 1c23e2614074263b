// `/commit` on a real repository: an Agent request (the git_commit tool's card) whose prompt holds the
// files, the recent subjects and the diff; a repository in a state that cannot commit is refused before
// any model call, with what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandPrompt } from '../../../extension/core/extensions/prompt-expansion';
import { SlashCommandRegistry } from '../../../extension/core/extensions/slash-commands';
import { gitCommitCommand } from '../../../extension/core/git';
import { hasGit, makeRepo } from './git-repo';

const skip = hasGit ? false : 'git is not installed';

test('/commit: an Agent prompt with the state, the style and the diff; a clean tree is refused', { skip }, async () => {
  const r = makeRepo({ history: ['feat(ui): a button', 'fix(ui): its label'] });
  try {
    const commit = gitCommitCommand(() => r.dir);
    const clean = await expandPrompt(new SlashCommandRegistry(), '/commit', { commit });
    assert.deepEqual(clean, {
      ok: false,
      message: 'Nothing to commit: the working tree is clean (no staged or changed files).',
    });
    r.write('src/button.ts', 'export const label = "OK";\n');
    const out = await expandPrompt(new SlashCommandRegistry(), '/commit keep it short', { commit });
    assert.ok(out.ok);
    assert.equal(out.mode, 'agent');
    assert.equal(out.command, 'commit');
    assert.match(out.text, /git_commit/);
    assert.match(out.text, /The user says: keep it short/);
    assert.match(out.text, /New \(untracked\): src\/button\.ts/);
    assert.match(out.text, /- fix\(ui\): its label/);
    assert.match(out.text, /label = "OK"/);
  } finally {
    r.done();
  }
});
