// The model picker in real Chromium: the reasoning option next to it for models that take one (its
// labels per kind, kept per model, posted to the host), VS Code's language models listed, and the
// entry that says none is installed (shown, not selectable).
import { beforeEach, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deliver, useViewEnvironment, type ViewHarness } from './harness';
import { snapshot, snapshotMessage } from './fixtures';
import type { ModelChoice } from '../../extension/protocol';

const env = useViewEnvironment();
let view: ViewHarness;

beforeEach(async () => {
  view = await env.open();
});
afterEach(async () => {
  await view.close();
});

const MODELS: ModelChoice[] = [
  { ref: 'anthropic/claude-sonnet-4-5', label: 'Anthropic · claude-sonnet-4-5', hasKey: true, reasoning: 'thinking' },
  { ref: 'openai/gpt-5', label: 'OpenAI · gpt-5', hasKey: true, reasoning: 'effort' },
  { ref: 'minimax/MiniMax-M2.1', label: 'MiniMax · MiniMax-M2.1', hasKey: true },
  { ref: 'vscode-lm/copilot-gpt-4o', label: 'VS Code · GPT-4o', hasKey: true },
];

describe('model picker', () => {
  it('offers the reasoning level for models that take one, kept per model and sent to the host', async () => {
    await deliver(
      view,
      snapshotMessage(
        snapshot({ model: 'anthropic/claude-sonnet-4-5', models: MODELS, reasoning: { 'openai/gpt-5': 'high' } }),
      ),
    );
    const reasoning = view.page.getByRole('combobox', { name: 'Reasoning' });
    await reasoning.waitFor();
    assert.deepEqual(await reasoning.locator('option').allTextContents(), [
      'Thinking off',
      'Think: low',
      'Think: medium',
      'Think: high',
    ]);
    assert.equal(await reasoning.inputValue(), 'off');
    await reasoning.selectOption('medium');
    const posted = await view.waitForPost('setReasoning');
    assert.deepEqual(posted, { type: 'setReasoning', model: 'anthropic/claude-sonnet-4-5', reasoning: 'medium' });

    // Another model has its own level and its own labels.
    const picker = view.page.getByRole('combobox', { name: 'Model' });
    await picker.selectOption('openai/gpt-5');
    await view.page.waitForFunction(
      () => document.querySelector<HTMLSelectElement>('.reasoning-picker')?.value === 'high',
    );
    assert.equal(await reasoning.locator('option').first().textContent(), 'Reasoning: default');
    // Back to the first model: the level chosen for it is still there.
    await picker.selectOption('anthropic/claude-sonnet-4-5');
    await view.page.waitForFunction(
      () => document.querySelector<HTMLSelectElement>('.reasoning-picker')?.value === 'medium',
    );
    // A model without the option shows none.
    await picker.selectOption('minimax/MiniMax-M2.1');
    await view.page.waitForFunction(() => document.querySelector('.reasoning-picker') === null);
  });

  it("lists VS Code's language models like any other model", async () => {
    await deliver(view, snapshotMessage(snapshot({ model: 'minimax/MiniMax-M2.1', models: MODELS })));
    const picker = view.page.getByRole('combobox', { name: 'Model' });
    await picker.waitFor();
    assert.ok((await picker.locator('option').allTextContents()).includes('VS Code · GPT-4o'));
    await picker.selectOption('vscode-lm/copilot-gpt-4o');
    const posted = await view.waitForPost('setModel');
    assert.equal(posted.model, 'vscode-lm/copilot-gpt-4o');
  });

  it('says plainly when no VS Code language model is installed; that entry cannot be chosen', async () => {
    const none: ModelChoice = {
      ref: 'vscode-lm',
      label: 'VS Code · no language model installed',
      hasKey: true,
      unavailable: 'No VS Code language model is installed. Install GitHub Copilot Chat (or another extension …).',
    };
    await deliver(
      view,
      snapshotMessage(snapshot({ model: 'minimax/MiniMax-M2.1', models: [...MODELS.slice(0, 3), none] })),
    );
    const option = view.page.getByRole('option', { name: 'VS Code · no language model installed' });
    await option.waitFor({ state: 'attached' });
    assert.equal(await option.isDisabled(), true);
    assert.match((await option.getAttribute('title')) ?? '', /Install GitHub Copilot Chat/);
    const picker = view.page.getByRole('combobox', { name: 'Model' });
    assert.equal(await picker.inputValue(), 'minimax/MiniMax-M2.1');
  });
});
