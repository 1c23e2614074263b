// Memory you review in real Chromium: a `remember` call's card (a `group` "Memory" inside the tool card)
// with Keep / Edit / Drop, the edited text posted on Keep, and `# text` in the composer.
import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;
let r: RequestScript;

beforeEach(async () => {
  view = await env.open();
  await deliver(view, snapshotMessage(snapshot({ mode: 'agent' })));
  r = new RequestScript('r-memory');
  await deliver(view, r.events(r.started('run the tests', 'agent')));
});
afterEach(async () => {
  assert.deepEqual(await view.violations(), []);
  assert.deepEqual(view.pageErrors, []);
  await view.close();
});

const propose = (callId: string) =>
  r.events(
    {
      type: 'tool_started',
      call: { callId, name: 'remember', kind: 'read', subject: 'Tests need make db', status: 'running', startedAt: 1 },
    },
    {
      type: 'memory_proposed',
      callId,
      memory: {
        text: 'Tests need make db',
        scope: 'workspace',
        files: { workspace: '.sextant/memory.md', user: '~/.sextant/memory.md' },
        reason: 'the test run failed without it',
      },
    },
  );

describe('memory card', () => {
  it('shows the memory, its reason and files; Edit then Keep posts the edited text and the file picked', async () => {
    await deliver(view, propose('m1'));
    const card = view.page.getByRole('group', { name: 'Tool: remember' }).getByRole('group', { name: 'Memory' });
    await card.getByText('Tests need make db', { exact: true }).waitFor();
    await card.getByText('Why: the test run failed without it').waitFor();
    assert.equal(await card.getByRole('radio', { name: /This workspace/ }).isChecked(), true);
    await card.getByRole('button', { name: 'Edit memory' }).click();
    const box = card.getByRole('textbox', { name: 'Memory text' });
    await box.fill('Tests need `make db` first');
    await card.getByRole('radio', { name: /You, everywhere/ }).check();
    await card.getByRole('button', { name: 'Keep memory' }).click();
    const reply = await view.waitForPost('memoryReply');
    assert.deepEqual(reply, {
      type: 'memoryReply',
      callId: 'm1',
      reply: { decision: 'keep', text: 'Tests need `make db` first', scope: 'user' },
    });
    await deliver(view, r.events({ type: 'memory_resolved', callId: 'm1' }));
    await card.waitFor({ state: 'detached' });
  });

  it('Drop posts a drop; an emptied memory is not kept', async () => {
    await deliver(view, propose('m2'));
    const card = view.page.getByRole('group', { name: 'Memory' });
    await card.getByRole('button', { name: 'Edit memory' }).click();
    await card.getByRole('textbox', { name: 'Memory text' }).fill('   ');
    await card.getByRole('button', { name: 'Keep memory' }).click();
    await card.getByRole('alert').getByText('Write the memory first, or drop it.').waitFor();
    await card.getByRole('button', { name: 'Drop memory' }).click();
    assert.deepEqual(await view.waitForPost('memoryReply'), {
      type: 'memoryReply',
      callId: 'm2',
      reply: { decision: 'drop' },
    });
  });

  it('`# text` in the composer asks the host to keep a memory instead of sending a message', async () => {
    await deliver(view, r.events({ type: 'complete' }));
    const box = view.page.getByRole('textbox', { name: 'Message' });
    await box.fill('# Always use pnpm');
    await box.press('Enter');
    assert.deepEqual(await view.waitForPost('addMemory'), { type: 'addMemory', text: 'Always use pnpm' });
    assert.equal(await box.inputValue(), '');
  });
});
