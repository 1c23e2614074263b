// The `/` menu, built-in and project commands, prompt recall on Up/Down and the context popover, in real
// Chromium: what the view posts and shows.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ProjectContextInfo } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

const info: ProjectContextInfo = {
  rules: [
    { label: 'AGENTS.md', scope: 'workspace', tokens: 120 },
    { label: 'CLAUDE.md', scope: 'workspace', tokens: 5_715, cutFrom: 48_000 },
    { label: '~/.claude/CLAUDE.md', scope: 'user', tokens: 30 },
  ],
  rulesTokens: 5_900,
  skills: [{ name: 'release', description: 'Cut a release', source: '.claude/skills/release' }],
  skillsTokens: 60,
  commands: [
    { name: 'explain', description: 'Explain code', source: '.claude/commands', argumentHint: '<path>' },
    { name: 'frontend:review', description: 'Review a component', source: '.claude/commands' },
  ],
};

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot()));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

const composer = () => view.page.getByRole('textbox', { name: 'Message' });

/** Waits until the composer shows `text` (a key's effect renders on the next frame). */
async function composerShows(text: string): Promise<void> {
  await view.page.waitForFunction(
    (want) => (document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement | null)?.value === want,
    text,
  );
}

describe('slash commands', () => {
  it('typing / asks for the commands and lists built-ins and the project’s; Enter picks, Enter sends', async () => {
    await composer().fill('/');
    await view.waitForPost('projectContext');
    await deliver(view, { type: 'projectContext', info });
    const menu = view.page.getByRole('listbox', { name: 'Commands' });
    await menu.getByRole('option', { name: /\/explain/ }).waitFor();
    for (const name of ['/clear', '/compact', '/init', '/frontend:review'])
      assert.equal(await menu.getByRole('option', { name: new RegExp(name) }).count(), 1, name);
    await composer().pressSequentially('exp');
    await menu.getByRole('option').nth(1).waitFor();
    await view.page.waitForFunction(() => document.querySelectorAll('#slash-menu [role=option]').length === 2);
    // Built-ins come first (/export); Down moves to /explain.
    await composer().press('ArrowDown');
    await composer().press('Enter');
    await composerShows('/explain ');
    await menu.waitFor({ state: 'detached' }); // the menu closes once a command is chosen
    await composer().pressSequentially('src');
    await composer().press('Enter');
    const sent = await view.waitForPost('send');
    assert.equal(sent.text, '/explain src');
    await composerShows('');
  });

  it('an unknown command is refused in the view and the draft kept; built-ins become their messages', async () => {
    await deliver(view, { type: 'projectContext', info });
    await composer().fill('/nosuch thing');
    await composer().press('Escape');
    await composer().press('Enter');
    await view.page.getByText('Unknown command /nosuch. Type / to see the commands.').waitFor();
    await composerShows('/nosuch thing');
    assert.equal((await view.posts()).filter((p) => p.type === 'send').length, 0);
    await composer().fill('/mode plan');
    await composer().press('Escape');
    await composer().press('Enter');
    assert.equal((await view.waitForPost('setMode')).mode, 'plan');
    await composer().fill('/clear');
    await composer().press('Escape');
    await composer().press('Enter');
    await view.waitForPost('newChat');
    await composer().fill('/init');
    await composer().press('Escape');
    await composer().press('Enter');
    const init = await view.waitForPost('send');
    assert.deepEqual([init.text, init.mode], ['/init', 'agent']);
  });
});

describe('prompt history', () => {
  it('Up walks back through earlier prompts from the first line, Down returns to the kept draft', async () => {
    await deliver(view, { type: 'promptHistory', prompts: ['first prompt', 'second\nprompt'] });
    await composer().fill('my draft');
    await composer().press('Home');
    await composer().press('ArrowUp');
    await composerShows('second\nprompt');
    // The caret is at the end (last line): Up moves within the text, it does not recall.
    await composer().press('ArrowUp');
    await composerShows('second\nprompt');
    await composer().press('ArrowUp');
    await composerShows('first prompt');
    await composer().press('ArrowDown');
    await composerShows('second\nprompt');
    await composer().press('ArrowDown');
    await composer().press('ArrowDown');
    await composerShows('my draft');
  });
});

describe('context popover', () => {
  it('lists the rules files with tokens and a note for a cut file, and the skills', async () => {
    await view.page.getByRole('button', { name: 'Context' }).click();
    await view.waitForPost('projectContext');
    await deliver(view, { type: 'projectContext', info });
    const dialog = view.page.getByRole('dialog', { name: 'Context' });
    const rules = dialog.getByRole('list', { name: 'Rules files' });
    assert.equal(await rules.getByRole('listitem').count(), 3);
    await rules.getByText('CLAUDE.md', { exact: true }).waitFor();
    await dialog.getByText(/Cut: the file has 48,000 characters/).waitFor();
    await dialog.getByRole('list', { name: 'Skills' }).getByText('release', { exact: true }).waitFor();
    await view.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
