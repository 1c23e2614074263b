// /review: the diff of the working tree (or a range) from a real git repository, in a Plan-mode prompt for
// the reviewer sub-agent; bad ranges refused; a repository's external diff driver never runs.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import * as path from 'node:path';
import { expandPrompt } from '../../../extension/core/extensions/prompt-expansion';
import { gitReviewDiff } from '../../../extension/core/extensions/review';
import { referencesFor } from '../../../extension/core/extensions/references/service';
import { UNTRACKED_FILES_MAX } from '../../../extension/core/extensions/untracked-files';
import { SlashCommandRegistry } from '../../../extension/core/extensions/slash-commands';
import { createPolicy } from '../../../extension/core/permissions';
import { declaredToolFacts } from '../../../extension/core/tools/registry';
import { makeTempWorkspace, NodeWorkspace } from '../../fixtures/node-ports';

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' }).toString();

async function repo() {
  const root = await makeTempWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
  made.push(root);
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

test('/review adds untracked files: capped, binaries named, links not followed, read rules kept', async () => {
  const root = await repo();
  const outside = mkdtempSync(path.join(tmpdir(), 'sextant-review-outside-'));
  made.push(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE-SECRET-CONTENT\n');
  writeFileSync(path.join(root, '.gitignore'), 'ignored.log\n');
  mkdirSync(path.join(root, 'conf'));
  writeFileSync(path.join(root, 'conf/.env'), 'TOKEN=old\n');
  git(root, 'add', '.gitignore', 'conf/.env');
  git(root, 'commit', '-qm', 'ignore');
  // A tracked secret's change stays out of the diff too, named.
  writeFileSync(path.join(root, 'conf/.env'), 'TOKEN=TRACKED-SECRET\n');
  writeFileSync(path.join(root, 'src/new.ts'), 'export const fresh = exec(userInput);\n');
  writeFileSync(path.join(root, 'ignored.log'), 'IGNORED-CONTENT\n');
  writeFileSync(path.join(root, 'blob.bin'), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02, 0x00, 0xff]));
  writeFileSync(path.join(root, '.env'), 'API_TOKEN=DOTENV-SECRET\n');
  writeFileSync(path.join(root, 'big.txt'), `${'x'.repeat(99)}\n`.repeat(500));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-file'));
  symlinkSync(outside, path.join(root, 'link-dir'));
  // A textconv filter on every file: the untracked files are read by Sextant, not through git's diff.
  const marker = path.join(root, 'PWNED');
  writeFileSync(path.join(root, '.git/info/attributes'), '* diff=evil\n');
  git(root, 'config', 'diff.evil.textconv', `sh -c 'touch ${marker}; cat'`);
  git(root, 'config', 'diff.external', `sh -c 'touch ${marker}'`);

  // The read rules through read_file's own gate: a deny rule on .env.
  const policy = createPolicy({
    user: { deny: ['Read(**/.env)'] },
    workspaceFolders: [root],
    home: homedir(),
    tools: declaredToolFacts(),
  });
  const refs = referencesFor({
    workspace: new NodeWorkspace({ roots: [root] }),
    ripgrepPath: () => undefined,
    permissions: { policy: () => policy, rememberRule: async () => undefined },
    editor: {} as never,
    confirmRead: async () => true,
  });
  const out = await gitReviewDiff(() => root, refs.mayRead)(undefined);
  assert.ok(out.ok);
  const d = out.diff;
  assert.match(d, /\+\+\+ b\/src\/new\.ts\n@@ -0,0 \+1,1 @@\n\+export const fresh = exec\(userInput\);/);
  assert.doesNotMatch(d, /IGNORED-CONTENT|ignored\.log/, 'ignored files are not listed');
  assert.match(d, /b\/blob\.bin\nnew file \(untracked\): a binary file of 7 bytes \(not shown\)/);
  assert.match(d, /b\/\.env\nnew file \(untracked\): not read: /);
  assert.doesNotMatch(d, /DOTENV-SECRET|TRACKED-SECRET/);
  assert.match(d, /Changes not included, by the read rules: conf\/\.env/);
  assert.match(d, /b\/link-file\nnew file \(untracked\): a symbolic link to .* \(not followed\)/);
  assert.match(d, /b\/link-dir\nnew file \(untracked\): a symbolic link to .* \(not followed\)/);
  assert.doesNotMatch(d, /OUTSIDE-SECRET-CONTENT/);
  assert.match(d, /# \(30000 more bytes of big\.txt not shown\)/, 'one file is capped at 20,000 bytes');
  assert.equal(existsSync(marker), false, 'no textconv or external diff ran');

  // Over the count cap: the rest are named, not shown.
  mkdirSync(path.join(root, 'many'));
  for (let i = 0; i < UNTRACKED_FILES_MAX + 5; i++)
    writeFileSync(path.join(root, 'many', `f${String(i).padStart(2, '0')}.txt`), `file ${i}\n`);
  const capped = await gitReviewDiff(() => root, refs.mayRead)(undefined);
  assert.ok(capped.ok);
  assert.match(capped.diff, /# \d+ more untracked file\(s\) not shown/);
  // No tracked change here: every file header is an untracked file's, at most the cap.
  assert.equal((capped.diff.match(/^diff --git /gm) ?? []).length, UNTRACKED_FILES_MAX);
  // A range review is the range alone.
  const ranged = await gitReviewDiff(() => root, refs.mayRead)('HEAD~1..HEAD');
  assert.ok(ranged.ok);
  assert.doesNotMatch(ranged.diff, /new file \(untracked\)/);
});
