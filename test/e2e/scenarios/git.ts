// Git as a user meets it (issue 41): the Source Control view's "Write Commit Message" button fills the
// commit input from the (fake) model, whose request holds the repository's recent subjects; `/review`
// puts its finding as a comment on the line it names (and in Problems), and the comment's "Apply Fix"
// sends the fix to the agent, whose edit opens in the diff review. The workspace is made a repository
// for these scenarios and put back afterwards; the built-in Git extension is on for them only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil, type Workbench } from '../harness/workbench';
import { lastUserText } from '../../fixtures/fake-llm';

const HISTORY = ['feat(greet): greet by name', 'fix(greet): trim the name', 'docs: say what greet does'];
const MESSAGE = 'feat(greet): greet warmly';
const FINDING = 'an empty name gives "Hello, !"; fall back to "world".';

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' },
  });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

function systemOf(body: unknown): string {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> })?.messages ?? [];
  return messages
    .filter((m) => m.role === 'system')
    .map((m) => String(m.content))
    .join('\n');
}

/** The workspace as a repository with a conventional history, git on in VS Code; returns the undo. */
function repository(workspace: string): () => void {
  const greet = join(workspace, 'src', 'greet.js');
  const before = readFileSync(greet, 'utf8');
  git(workspace, 'init', '-q', '-b', 'main');
  git(workspace, 'config', 'user.name', 'E2E');
  git(workspace, 'config', 'user.email', 'e2e@example.com');
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-qm', HISTORY[0] ?? '');
  for (const subject of HISTORY.slice(1)) git(workspace, 'commit', '-q', '--allow-empty', '-m', subject);
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  const settings = join(workspace, '.vscode', 'settings.json');
  writeFileSync(settings, JSON.stringify({ 'git.enabled': true }));
  return () => {
    rmSync(join(workspace, '.git'), { recursive: true, force: true });
    rmSync(settings, { force: true });
    writeFileSync(greet, before);
  };
}

async function showSourceControl(wb: Workbench): Promise<void> {
  await wb.openActivity('Source Control');
}

export function gitScenarios(e2e: E2E): void {
  e2e.scenario(
    'Source Control: "Write Commit Message" fills the input box from the model, in the repository’s style',
    async ({ wb, page, fake, workspace }) => {
      const undo = repository(workspace);
      try {
        writeFileSync(
          join(workspace, 'src', 'greet.js'),
          readFileSync(join(workspace, 'src', 'greet.js'), 'utf8').replace('Hello', 'Hello there'),
        );
        git(workspace, 'add', 'src/greet.js');
        fake.onRequest((req) =>
          systemOf(req.body).includes('You write git commit messages') ? { text: MESSAGE } : undefined,
        );
        await showSourceControl(wb);
        // The button is on the Source Control title once the Git extension has opened the repository.
        const button = page.locator('.part.sidebar [aria-label="Write Commit Message"]').first();
        // View title actions show while the pointer is over the view: hover it, as a user's pointer would be.
        const clicked = await poll(
          'the "Write Commit Message" button in Source Control',
          async () => {
            // Title actions show while the pointer is over the view; the click is the action's own event.
            await page.locator('.part.sidebar .composite.title').first().hover();
            return button.dispatchEvent('click').then(
              () => true,
              () => false,
            );
          },
          60_000,
        ).catch(async (err: unknown) => {
          const labels = await page
            .locator('.part.sidebar .action-label')
            .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
          throw new Error(`${String(err)}; the actions there: ${JSON.stringify(labels)}`);
        });
        assert.ok(clicked);
        const input = page.locator('.part.sidebar .scm-editor .view-lines').first();
        await poll(
          'the message in the commit input box',
          async () => ((await input.innerText().catch(() => '')) ?? '').replace(/\s+/g, ' ').includes(MESSAGE),
          60_000,
        );
        const req = fake.requests.find((r) => systemOf(r.body).includes('You write git commit messages'));
        assert.ok(req, 'a model request for the message');
        const sent = lastUserText(req.body);
        for (const subject of HISTORY) assert.ok(sent.includes(subject), `the prompt holds "${subject}"`);
        assert.match(sent, /Hello there/);
      } finally {
        fake.onRequest(undefined);
        await wb.runPaletteCommand('View: Close All Editors').catch(() => undefined);
        undo();
      }
    },
    { timeoutMs: 150_000 },
  );

  e2e.scenario(
    '/review: the finding is a comment on its line, and "Apply Fix" opens the diff review of the fix',
    async ({ wb, page, fake, workspace }) => {
      const undo = repository(workspace);
      const greet = join(workspace, 'src', 'greet.js');
      try {
        writeFileSync(greet, readFileSync(greet, 'utf8').replace('Hello', 'Hello again'));
        let fix = 0;
        fake.onRequest((req) => {
          const text = lastUserText(req.body);
          if (text.includes('reviewer') && text.includes('```diff'))
            return { text: `Findings:\n\n- **high** [src/greet.js:3](src/greet.js#L3) — ${FINDING}` };
          if (!text.includes('Apply this fix from the code review to src/greet.js at line 3')) return undefined;
          fix++;
          if (fix === 1) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/greet.js' } }] };
          if (fix === 2)
            return {
              toolCalls: [
                {
                  name: 'edit_file',
                  arguments: { file_path: 'src/greet.js', old_string: '${name}!', new_string: "${name || 'world'}!" },
                },
              ],
            };
          return { text: 'The fallback is in.' };
        });
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        await wb.typeMessage('/review');
        await poll(
          'the review answer',
          async () => (await wb.articles('Sextant').last().innerText()).includes('world'),
          60_000,
        );
        await wb.openFile('src/greet.js');
        const thread = page
          .locator('.editor-group-container.active .review-widget', { hasText: 'fall back to' })
          .first();
        await waitUntil('the review comment in the editor', () =>
          thread.waitFor({ state: 'visible', timeout: 30_000 }),
        );
        // On the right line: the comment's zone sits right below line 3.
        const line3 = page.locator('.editor-group-container.active .margin-view-overlays .line-numbers', {
          hasText: /^3$/,
        });
        const lineBox = await line3.first().boundingBox();
        const zone = page
          .locator('.editor-group-container.active .zone-widget', { has: page.locator('.review-widget') })
          .filter({ hasText: 'fall back to' });
        const zoneBox = await zone.first().boundingBox();
        assert.ok(lineBox && zoneBox, 'the line and the comment are on screen');
        assert.ok(
          Math.abs(zoneBox.y - (lineBox.y + lineBox.height)) <= 2,
          `below line 3 (${zoneBox.y} vs ${lineBox.y})`,
        );
        await waitUntil('"Apply Fix" on the comment', () =>
          thread.locator('a', { hasText: 'Apply Fix' }).first().click({ timeout: 15_000 }),
        );
        const tab = page.locator('.tabs-container .tab', { hasText: "Sextant's proposal" }).first();
        await waitUntil('the diff review of the fix', () => tab.waitFor({ state: 'visible', timeout: 60_000 }));
        const deny = page.locator('.editor-group-container.active .editor-actions [aria-label^="Deny Change"]').first();
        await waitUntil('"Deny Change" on the proposal', () => deny.click({ timeout: 15_000 }));
        assert.ok(!readFileSync(greet, 'utf8').includes("name || 'world'"), 'nothing written without approval');
        await wb.runPaletteCommand('Sextant: Clear Review Findings');
        await poll('the comment gone', async () => (await thread.count()) === 0);
      } finally {
        fake.onRequest(undefined);
        await wb.runPaletteCommand('View: Close All Editors').catch(() => undefined);
        undo();
      }
    },
    { timeoutMs: 180_000 },
  );
}
