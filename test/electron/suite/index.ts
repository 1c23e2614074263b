// Runs inside VS Code's extension host (via @vscode/test-electron). The webview itself is driven by
// the code-server suite (test/e2e), which can click inside it; here we check what the extension API
// shows: lazy activation, the contributed commands and the defaults of the settings the extension reads.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

const EXTENSION_ID = 'sextant.sextant';

async function check(name: string, fn: () => Promise<void>, failures: string[]): Promise<void> {
  try {
    await fn();
    console.log(`  ✔ ${name}`);
  } catch (err) {
    failures.push(name);
    console.log(`  ✖ ${name}\n    ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  }
}

export async function run(): Promise<void> {
  const failures: string[] = [];
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  await check(
    'the extension is installed and not activated at startup (lazy activation)',
    async () => {
      assert.ok(ext, `${EXTENSION_ID} is not installed`);
      assert.equal(ext.isActive, false);
    },
    failures,
  );
  await check(
    '"Sextant: Focus Chat" activates it',
    async () => {
      await vscode.commands.executeCommand('sextant.focusChat');
      assert.equal(ext?.isActive, true);
    },
    failures,
  );
  await check(
    'every contributed command is registered',
    async () => {
      const all = new Set(await vscode.commands.getCommands(true));
      for (const id of [
        'sextant.newChat',
        'sextant.focusChat',
        'sextant.switchMode',
        'sextant.selectModel',
        'sextant.setApiKey',
        'sextant.clearApiKey',
        'sextant.exportSession',
        'sextant.showHistory',
      ]) {
        assert.ok(all.has(id), `${id} is not registered`);
      }
    },
    failures,
  );
  await check(
    'settings have their documented defaults',
    async () => {
      const c = vscode.workspace.getConfiguration('sextant');
      assert.equal(c.get('defaultModel'), 'minimax/MiniMax-M2.1');
      assert.equal(c.get('agent.maxSteps'), 50);
    },
    failures,
  );
  if (failures.length) throw new Error(`${failures.length} check(s) failed: ${failures.join('; ')}`);
}
