// /review: the diff of the working tree (or a range) from a real git repository, in a Plan-mode prompt for
// the reviewer sub-agent; bad ranges refused; a repository's external diff driver never runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { expandPrompt } from '../../../extension/core/extensions/prompt-expansion';
import { gitReviewDiff } from '../../../extension/core/extensions/review';
import { SlashCommandRegistry } from '../../../extension/core/extensions/slash-commands';
import { makeTempWorkspace } from '../../fixtures/node-ports';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' }).toString();

async function repo() {
  const root = await makeTempWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'one');
  return root;
}

test('/review: the working tree diff goes to the reviewer sub-agent, in Plan mode', async () => {
  const root = await repo();
  writeFileSync(path.join(root, 'src/a.ts'), 'export const a = eval(process.argv[2]);\n');
  const out = await expandPrompt(new SlashCommandRegistry(), '/review', { reviewDiff: gitReviewDiff(() => root) });
  assert.ok(out.ok);
  assert.equal(out.mode, 'plan');
  assert.equal(out.command, 'review');
  assert.match(out.text, /subagent_type` "reviewer"/);
  assert.match(out.text, /\+export const a = eval\(process\.argv\[2\]\);/);
  assert.match(out.text, /\[path:line\]\(path#Lline\)/);
});

test('/review <range> diffs that range; nothing changed and bad ranges are refused with a reason', async () => {
  const root = await repo();
  const review = gitReviewDiff(() => root);
  const none = await expandPrompt(new SlashCommandRegistry(), '/review', { reviewDiff: review });
  assert.deepEqual(none, { ok: false, message: 'Nothing to review: no changes in the working tree against HEAD.' });
  git(root, 'checkout', '-qb', 'feature');
  writeFileSync(path.join(root, 'src/b.ts'), 'export const b = 2;\n');
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'two');
  const ranged = await expandPrompt(new SlashCommandRegistry(), '/review main..feature', { reviewDiff: review });
  assert.ok(ranged.ok);
  assert.match(ranged.text, /the range main\.\.feature/);
  assert.match(ranged.text, /\+export const b = 2;/);
  for (const bad of ['--output=/tmp/x', 'main; rm -rf /', 'nosuchbranch']) {
    const r = await expandPrompt(new SlashCommandRegistry(), `/review ${bad}`, { reviewDiff: review });
    assert.ok(!r.ok, bad);
  }
});

test("a repository's external diff driver and textconv never run", async () => {
  const root = await repo();
  const marker = path.join(root, 'PWNED');
  git(root, 'config', 'diff.external', `sh -c 'touch ${marker}'`);
  writeFileSync(path.join(root, '.gitattributes'), '*.ts diff=evil\n');
  git(root, 'config', 'diff.evil.textconv', `sh -c 'touch ${marker}; cat'`);
  writeFileSync(path.join(root, 'src/a.ts'), 'export const a = 2;\n');
  const out = await gitReviewDiff(() => root)(undefined);
  assert.ok(out.ok);
  assert.match(out.diff, /\+export const a = 2;/);
  assert.equal(existsSync(marker), false);
});
