// `@` references and the context meter in real Chromium: the listbox (keys, options, what is asked of
// the host), chips (removable; sent with the message; back in the composer when the host refuses), a sent
// message's chips, and the header's meter with its breakdown popover.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextBreakdown } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { message, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

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
const listbox = () => view.page.getByRole('listbox', { name: 'References to attach' });

describe('@ references', () => {
  it('typing @ asks the host for files, lists editor references and files; keys choose; the chip is sent', async () => {
    await composer().fill('Explain @ma');
    assert.equal((await view.waitForPost('referenceCandidates', (m) => m.query === 'ma')).query, 'ma');
    await deliver(view, {
      type: 'referenceCandidates',
      query: 'ma',
      items: [
        { kind: 'file', value: 'src/main.ts', label: '@src/main.ts', detail: 'src' },
        { kind: 'folder', value: 'src/maps', label: '@src/maps/', detail: 'folder' },
      ],
    });
    await listbox()
      .getByRole('option', { name: /@src\/main\.ts/ })
      .waitFor();
    // The textarea points at the active option (combobox pattern, focus stays in the textarea).
    assert.equal(await composer().getAttribute('aria-controls'), 'reference-picker');
    assert.equal(await composer().getAttribute('aria-activedescendant'), 'reference-option-0');
    assert.equal(await composer().getAttribute('aria-expanded'), null);
    await composer().press('ArrowDown');
    await view.page.waitForFunction(
      () => document.querySelector('textarea')?.getAttribute('aria-activedescendant') === 'reference-option-1',
    );
    await composer().press('ArrowUp');
    await composer().press('Enter');
    await listbox().waitFor({ state: 'detached' });
    const chips = view.page.getByRole('list', { name: 'References' });
    await chips.getByText('@src/main.ts').waitFor();
    assert.equal(await composer().inputValue(), 'Explain ');

    // @sel + Tab: the editor's selection.
    await composer().pressSequentially('and @sel');
    await listbox()
      .getByRole('option', { name: /@selection/ })
      .waitFor();
    await composer().press('Tab');
    await chips.getByText('@selection').waitFor();
    // Escape closes the listbox and keeps the text.
    await composer().pressSequentially('this @g');
    await listbox().getByRole('option', { name: /@git/ }).waitFor();
    await composer().press('Escape');
    await listbox().waitFor({ state: 'detached' });
    assert.equal(await composer().inputValue(), 'Explain and this @g');
    await composer().fill('Explain this');
    await composer().press('Enter');
    const sent = await view.waitForPost('send');
    assert.equal(sent.text, 'Explain this');
    assert.deepEqual(sent.references, [
      { kind: 'file', value: 'src/main.ts', label: '@src/main.ts' },
      { kind: 'selection', value: '', label: '@selection' },
    ]);
    await chips.waitFor({ state: 'detached' });
  });

  it('a chip is removed with its button; a refused send puts the text and chips back with the reason', async () => {
    await composer().fill('@');
    await listbox()
      .getByRole('option', { name: /@terminal/ })
      .waitFor();
    await composer().press('ArrowDown');
    await composer().press('ArrowDown');
    await composer().press('Enter'); // @selection, @problems, @terminal: the third
    await composer().fill('@');
    await listbox().getByRole('option', { name: /@git/ }).waitFor();
    await composer().press('ArrowUp'); // wraps to the last: @git
    await composer().press('Enter');
    const chips = view.page.getByRole('list', { name: 'References' });
    await chips.getByText('@git').waitFor();
    await chips.getByRole('button', { name: 'Remove @terminal' }).click();
    assert.equal(await chips.getByRole('listitem').count(), 1);

    await composer().fill('see the diff');
    await composer().press('Enter');
    const sent = await view.waitForPost('send');
    assert.deepEqual(sent.references, [{ kind: 'git', value: '', label: '@git' }]);
    await deliver(view, {
      type: 'sendRefused',
      message: 'Not sent: @src/gone.ts: there is no file or folder src/gone.ts. Your message is back in the composer.',
      text: 'see the diff',
      references: [{ kind: 'file', value: 'src/gone.ts', label: '@src/gone.ts' }],
    });
    await view.page.getByText(/there is no file or folder src\/gone\.ts/).waitFor();
    await chips.getByText('@src/gone.ts').waitFor();
    assert.equal(await composer().inputValue(), 'see the diff');
  });

  it('a URL typed in full is offered; a sent message shows what was attached, and a cut', async () => {
    await composer().fill('read @https://example.com/page');
    await listbox()
      .getByRole('option', { name: /@https:\/\/example\.com\/page/ })
      .waitFor();
    assert.equal((await view.posts()).filter((p) => p.type === 'referenceCandidates').length, 0, 'not searched');
    const user = message('user', 'Explain', {
      parts: [
        { type: 'text', text: 'Explain' },
        {
          type: 'attachments',
          attachments: [
            { kind: 'file', label: '@src/a.ts', chars: 1200 },
            { kind: 'file', label: '@big.log', chars: 20_000, cutFrom: 90_000 },
          ],
        },
      ],
    });
    await deliver(view, snapshotMessage(snapshot({ messages: [user] })));
    const attached = view.page.getByRole('article', { name: 'You' }).getByRole('list', { name: 'Attached' });
    await attached.getByText('@src/a.ts (1.2k chars)').waitFor();
    await attached.getByText(/@big\.log \(20\.0k chars · cut from 90,000\)/).waitFor();
    await attached.getByText(/cut at the cap: 20,000 of 90,000 characters attached/).waitFor();
  });
});

const breakdown: ContextBreakdown = {
  model: 'fake/model',
  window: 128_000,
  compactAt: 102_400,
  total: 43_500,
  parts: [
    { name: 'system', tokens: 3_000 },
    { name: 'rules', tokens: 1_500 },
    { name: 'skills', tokens: 200 },
    { name: 'tools', tokens: 8_000 },
    { name: 'mcpTools', tokens: 800 },
    { name: 'conversation', tokens: 24_000 },
    { name: 'attachments', tokens: 6_000 },
  ],
};

describe('context meter', () => {
  it('asks for the figures, shows a meter named Context, and its breakdown with the threshold on click', async () => {
    await view.waitForPost('contextUsage');
    await deliver(view, { type: 'contextUsage', breakdown });
    const meter = view.page.getByRole('meter', { name: 'Context' });
    await meter.waitFor();
    assert.match(
      (await meter.getAttribute('aria-valuetext')) ?? '',
      /^34 % of the context window: 43\.5k of 128k tokens$/,
    );
    await meter.click();
    const dialog = view.page.getByRole('dialog', { name: 'Context' });
    const list = dialog.getByRole('list', { name: 'Context breakdown' });
    await list.getByText('Attachments (@)').waitFor();
    for (const label of [
      'System prompt',
      'Rules files',
      'Skills list',
      'Tool definitions',
      'MCP tools',
      'Conversation',
    ])
      await list.getByText(label, { exact: true }).waitFor();
    await list.getByText('Compaction threshold').waitFor();
    await list.getByText('102.4k tokens').waitFor();
    await view.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('/context opens the same breakdown in the chat view', async () => {
    await deliver(view, { type: 'contextUsage', breakdown });
    await composer().fill('/context');
    await composer().press('Escape');
    await composer().press('Enter');
    const dialog = view.page.getByRole('dialog', { name: 'Context' });
    await dialog.getByRole('list', { name: 'Context breakdown' }).waitFor();
  });
});
