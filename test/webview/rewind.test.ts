// Rewind to here and Edit in real Chromium: the buttons on a user message ask for a preview; the
// preview names the files (user-changed ones with a tick box) and posts the chosen rewind; the
// rewound message's text lands in the composer; Redo is offered; an edited message whose turns
// changed no files is sent at once, otherwise the user is asked whether to rewind files too.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatMessage, RewindPreview } from '../../extension/protocol';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { message, RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;
let messages: ChatMessage[];

const preview = (overrides: Partial<RewindPreview> = {}): RewindPreview => ({
  messageId: messages[0].id,
  text: 'change both files',
  files: [
    { path: 'src/a.ts', action: 'restore', changedByUser: false, editedBetweenTurns: true },
    { path: 'src/b.ts', action: 'restore', changedByUser: true, editedBetweenTurns: false },
    { path: 'src/new.ts', action: 'delete', changedByUser: false, editedBetweenTurns: false },
  ],
  summary: '2 files will be restored, 1 deleted; src/b.ts was changed by you since and will be kept',
  fileChanges: true,
  messagesRemoved: 2,
  ...overrides,
});

beforeEach(async () => {
  view = await env.open();
  messages = [
    message('user', 'change both files', { mode: 'agent' }),
    message('assistant', 'Done.', { mode: 'agent' }),
  ];
  await deliver(view, snapshotMessage(snapshot({ mode: 'agent', messages })));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

describe('rewind', () => {
  it('previews the files, posts the chosen rewind with ticked files, fills the composer and offers Redo', async () => {
    const you = view.page.getByRole('article', { name: 'You' });
    await you.getByRole('button', { name: 'Rewind to here' }).click();
    assert.deepEqual(await view.waitForPost('rewindPreview'), { type: 'rewindPreview', messageId: messages[0].id });
    const dialog = view.page.getByRole('dialog', { name: 'Rewind preview' });
    await dialog.getByText('Preparing the rewind preview').waitFor();

    await deliver(view, { type: 'rewindPreview', preview: preview() });
    await dialog.getByText('src/b.ts was changed by you since and will be kept').waitFor();
    const items = await dialog.getByRole('list', { name: 'Files' }).getByRole('listitem').allInnerTexts();
    assert.equal(items.length, 3);
    assert.match(items[0], /restore\s+src\/a\.ts\s+you also changed it between the agent's turns/);
    assert.match(items[2], /delete \(the agent created it\)\s+src\/new\.ts/);
    await dialog.getByText('2 messages out of this chat').waitFor();
    await dialog.getByRole('checkbox', { name: 'Overwrite my changes to src/b.ts' }).check();
    await dialog.getByRole('button', { name: 'Files and conversation' }).click();
    assert.deepEqual(await view.waitForPost('rewind'), {
      type: 'rewind',
      messageId: messages[0].id,
      scope: 'both',
      overwrite: ['src/b.ts'],
    });

    // The host rewinds: a new snapshot (with the Redo offer), then `rewound` with the draft.
    const summary = 'Restored 2 files; the conversation went back to before this message';
    await deliver(
      view,
      snapshotMessage(snapshot({ mode: 'agent', messages: [], redo: { messageId: messages[0].id, summary } })),
    );
    await deliver(view, { type: 'rewound', summary, draft: 'change both files' });
    const composer = view.page.getByRole('textbox', { name: 'Message' });
    assert.equal(await composer.inputValue(), 'change both files');
    const notice = view.page.getByRole('status', { name: 'Rewind' });
    await notice.getByText(summary).waitFor();
    assert.equal(await dialog.count(), 0);
    await notice.getByRole('button', { name: 'Redo' }).click();
    assert.deepEqual(await view.waitForPost('redoRewind'), { type: 'redoRewind' });

    // A new request (the host no longer offers Redo then): the notice goes.
    const next = new RequestScript('r-next');
    await deliver(view, next.events(next.started('change both files', 'agent')));
    await notice.waitFor({ state: 'detached' });
  });

  it('Files only is disabled when no file would change; Cancel closes the preview', async () => {
    await view.page.getByRole('article', { name: 'You' }).getByRole('button', { name: 'Rewind to here' }).click();
    await deliver(view, {
      type: 'rewindPreview',
      preview: preview({ files: [], fileChanges: false, summary: 'No files need to change' }),
    });
    const dialog = view.page.getByRole('dialog', { name: 'Rewind preview' });
    await dialog.getByText('No files need to change').waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Files only' }).getAttribute('disabled'), '');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('an edited message whose turns changed files asks whether to rewind them, then posts editResend', async () => {
    const you = view.page.getByRole('article', { name: 'You' });
    await you.getByRole('button', { name: 'Edit' }).click();
    const editor = you.getByRole('textbox', { name: 'Edit message' });
    await editor.fill('change only the first file');
    await you.getByRole('button', { name: 'Send edited message' }).click();
    await view.waitForPost('rewindPreview');
    await deliver(view, { type: 'rewindPreview', preview: preview() });
    const dialog = view.page.getByRole('dialog', { name: 'Rewind preview' });
    await dialog.getByText('Edit and resend').waitFor();
    await dialog.getByRole('button', { name: 'Send and rewind files' }).click();
    const sent = await view.waitForPost('editResend');
    assert.equal(sent.messageId, messages[0].id);
    assert.equal(sent.text, 'change only the first file');
    assert.equal(sent.rewindFiles, true);
    assert.equal(sent.mode, 'agent');
    assert.match(sent.requestId, /^req-/);
    await dialog.waitFor({ state: 'detached' });
  });

  it('an edited message whose turns changed no files is sent at once', async () => {
    const you = view.page.getByRole('article', { name: 'You' });
    await you.getByRole('button', { name: 'Edit' }).click();
    await you.getByRole('textbox', { name: 'Edit message' }).fill('say hello instead');
    await you.getByRole('textbox', { name: 'Edit message' }).press('Enter');
    await view.waitForPost('rewindPreview');
    await deliver(view, {
      type: 'rewindPreview',
      preview: preview({ files: [], fileChanges: false, summary: 'No files need to change' }),
    });
    const sent = await view.waitForPost('editResend');
    assert.equal(sent.text, 'say hello instead');
    assert.equal(sent.rewindFiles, false);
  });
});
