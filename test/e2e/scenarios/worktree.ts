// A chat in its own git worktree, as a user meets it: "Sextant: New Chat in Worktree" opens a chat on a
// new branch; its edit lands in the worktree, and the main working tree's file is unchanged on disk; the
// Agents view shows the session's branch, and its Merge Back… opens the review of the worktree's changes
// (the multi-file diff editor, the file listed) and then Apply puts the change in the working tree.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';
import { lastUserText } from '../../fixtures/fake-llm';

const ORIGINAL = 'return `Hello, ${name}!`;';
const EDITED = 'return `Hi from the worktree, ${name}!`;';

function firstUserText(body: unknown): string {
  const messages = (body as { messages?: { role?: string; content?: unknown }[] } | undefined)?.messages ?? [];
  for (const m of messages) if (m.role === 'user') return lastUserText({ messages: [m] });
  return '';
}

/** git on the host, as the user would run it in the workspace (a fixed identity; no global config). */
function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' },
  });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

export function worktreeScenarios(e2e: E2E): void {
  e2e.scenario(
    'A chat in its own worktree: its edit stays out of the working tree until merged back through the review',
    async ({ wb, page, fake, workspace, figure }) => {
      // The workspace becomes a repository with one commit (the scenario undoes it at the end).
      const greet = join(workspace, 'src', 'greet.js');
      const before = readFileSync(greet, 'utf8');
      assert.ok(before.includes(ORIGINAL));
      git(workspace, 'init', '-q', '-b', 'main');
      git(workspace, 'add', '-A');
      git(workspace, 'commit', '-qm', 'the project');
      const trees = `${workspace}.sextant-worktrees`;
      let step = 0;
      fake.onRequest((req) => {
        if (!firstUserText(req.body).startsWith('Task W')) return undefined;
        step++;
        if (step === 1) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/greet.js' } }] };
        if (step === 2)
          return {
            toolCalls: [
              { name: 'edit_file', arguments: { file_path: 'src/greet.js', old_string: ORIGINAL, new_string: EDITED } },
            ],
          };
        return { text: 'Task W finished: the greeting is friendlier.' };
      });
      try {
        // No other chat tab may answer for the worktree chat's (an earlier scenario's tab, restored by a reload).
        await wb.runPaletteCommand('View: Close All Editors');
        const t0 = Date.now();
        await wb.runPaletteCommand('Sextant: New Chat in Worktree');
        let tab = await poll('the worktree chat in an editor tab', async () => {
          try {
            const frame = await wb.chatFrame('editor');
            await frame.getByRole('textbox', { name: 'Message' }).waitFor({ timeout: 2_000 });
            return frame;
          } catch {
            return undefined;
          }
        });
        figure('worktree chat: command → composer ms', Date.now() - t0);
        const made = /the chat may start after (\d+) ms/.exec(wb.outputChannelText('Sextant'));
        if (made) figure('worktree: created, chat may start ms', Number(made[1]));
        // `git worktree add` makes the folder, then the worktree in it: wait for the worktree.
        const name = await poll(`a worktree in the folder beside the workspace: ${trees}`, async () =>
          existsSync(trees) ? readdirSync(trees).find((n) => /^chat-[a-z0-9]{6}$/.test(n)) : undefined,
        );
        const worktree = join(trees, name);

        await waitUntil('the worktree chat Agent radio', () =>
          tab.getByRole('radio', { name: 'Agent', exact: true }).check({ timeout: 15_000 }),
        );
        tab = await wb.chatFrame('editor');
        const box = tab.getByRole('textbox', { name: 'Message' });
        await box.click({ timeout: 15_000 });
        await box.pressSequentially('Task W: make the greeting friendlier', { delay: 2 });
        await box.press('Enter');
        // The edit asks (as in any chat): its proposal opens in the diff review, approved from its title bar.
        const approve = page.locator('.editor-group-container.active .editor-actions [aria-label^="Approve Change"]');
        await waitUntil('"Approve Change" on the proposal of the worktree chat', () =>
          approve.first().click({ timeout: 60_000 }),
        );
        await poll(
          'the worktree chat to finish',
          async () => {
            const t = await wb.chatFrame('editor').catch(() => undefined);
            const text =
              (await t
                ?.locator('body')
                .innerText()
                .catch(() => '')) ?? '';
            return text.includes('Task W finished');
          },
          90_000,
        );

        // On disk: the worktree has the edit; the main working tree does not.
        assert.ok(readFileSync(join(worktree, 'src', 'greet.js'), 'utf8').includes(EDITED), 'edited in the worktree');
        assert.equal(readFileSync(greet, 'utf8'), before, 'the main working tree’s file is unchanged');
        assert.equal(git(workspace, 'status', '--porcelain'), '', 'nothing changed in the main working tree');

        // The Agents view shows the session's branch and offers Merge Back….
        await wb.runPaletteCommand('View: Close All Editors');
        await wb.runPaletteCommand('Sextant: Show Agents');
        const agents = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Agents' }) });
        const row = agents.locator('.monaco-list-row', { hasText: /Task W/ }).first();
        await poll(
          'the worktree chat listed as done, on its branch',
          async () => {
            const label = (await row.getAttribute('aria-label').catch(() => null)) ?? '';
            return /, done/.test(label) && label.includes(`sextant/${name}`);
          },
          30_000,
        );
        await row.hover();
        await waitUntil('the Merge Back… action on the row', () =>
          row.locator('.action-label[aria-label="Merge Back…"]').click({ timeout: 15_000 }),
        );

        // The review: the worktree's changes in the multi-file diff editor, the file listed.
        const reviewTab = page.locator('.tabs-container .tab', { hasText: `Merge back: sextant/${name}` });
        await waitUntil('the merge-back review tab', () => reviewTab.first().waitFor({ timeout: 30_000 }));
        await poll(
          'greet.js in the review',
          async () =>
            (
              (await page
                .locator('.editor-group-container.active .editor-container')
                .innerText()
                .catch(() => '')) ?? ''
            ).includes('greet.js'),
          30_000,
        );
        // Then the choice: Apply to the working tree.
        const apply = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Apply to the working tree' });
        await waitUntil('the merge-back choices', () => apply.first().click({ timeout: 30_000 }));
        await poll(
          'the change in the main working tree',
          async () => readFileSync(greet, 'utf8').includes(EDITED),
          30_000,
        );
        assert.match(git(workspace, 'status', '--porcelain'), /^ M src\/greet\.js$/m, 'an uncommitted edit');
        await poll('the worktree removed', async () => !existsSync(worktree));
        await poll(
          'its branch deleted',
          async () => git(workspace, 'branch', '--list', `sextant/${name}`).trim() === '',
        );
      } finally {
        fake.onRequest(undefined);
        await wb.runPaletteCommand('View: Close All Editors').catch(() => undefined);
        // The workspace as the scenarios after this one expect it: no repository, the file as it was.
        rmSync(join(workspace, '.git'), { recursive: true, force: true });
        rmSync(trees, { recursive: true, force: true });
        writeFileSync(greet, before);
      }
    },
    { timeoutMs: 180_000 },
  );
}
