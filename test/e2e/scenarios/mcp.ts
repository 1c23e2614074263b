// MCP in a real VS Code: the workspace's .mcp.json names our stdio test server; nothing starts until
// the user approves it on the "MCP server: e2e" card (a marker file proves it); then its writing tool,
// called from Agent mode, asks like any tool and writes its note once approved; "Sextant: MCP Servers"
// shows the server connected with its tools.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';
import { buildStdioServer } from '../../fixtures/mcp/build-server';

export function mcpScenarios(e2e: E2E): void {
  e2e.scenario(
    'MCP: a workspace server starts only once approved, its tool runs from Agent mode, the status view lists it',
    async ({ wb, fake, page, workspace }) => {
      // In the workspace: the server runs in the sandbox (bubblewrap on this machine), which may write
      // only there — and whose /tmp is its own, so a server file under the host's /tmp would not be seen.
      const outside = join(workspace, '.mcp-e2e');
      mkdirSync(outside, { recursive: true });
      const serverFile = join(outside, 'server.cjs');
      await buildStdioServer(ROOT, serverFile);
      const markers = join(outside, 'markers');
      mkdirSync(markers, { recursive: true });
      const notes = join(outside, 'notes');
      await wb.openSextantView();
      await wb.runPaletteCommand('Sextant: New Chat');
      wb.writeWorkspaceFile(
        '.mcp.json',
        JSON.stringify(
          {
            mcpServers: {
              e2e: { command: process.execPath, args: [serverFile], env: { MARKER_DIR: markers, NOTES_DIR: notes } },
            },
          },
          null,
          2,
        ),
      );

      const card = wb.inWebview('group', 'MCP server: e2e');
      await poll('the approval card "MCP server: e2e"', async () => (await card.count()) === 1, 30_000);
      const text = await card.innerText();
      assert.match(text, /server\.cjs/, 'the card shows the full command line');
      assert.match(text, /MARKER_DIR, NOTES_DIR \(values hidden\)/);
      assert.ok(!text.includes(markers), 'env values are not shown');
      assert.equal(existsSync(join(markers, 'started')), false, 'the server started before approval');

      await wb.clickInWebview('button', 'Approve server');
      await poll('the approved server to start', async () => existsSync(join(markers, 'started')), 30_000);
      await poll('the card to go away', async () => (await card.count()) === 0);

      await waitUntil('the Agent mode radio', () => wb.inWebview('radio', 'Agent').check({ timeout: 15_000 }));
      fake.enqueue(
        { toolCalls: [{ name: 'mcp__e2e__write_note', arguments: { name: 'hello.txt', text: 'from the e2e model' } }] },
        { text: 'The note is saved.' },
      );
      await wb.typeMessage('Save a note through the MCP server');
      const approval = wb.inWebview('group', 'Approval: mcp__e2e__write_note');
      await poll('the approval card for the MCP tool', async () => (await approval.count()) === 1, 30_000);
      assert.match(await approval.innerText(), /destructive/);
      assert.equal(existsSync(join(notes, 'hello.txt')), false);
      await wb.clickInWebview('button', 'Approve');
      await poll('the note written by the MCP server', async () => existsSync(join(notes, 'hello.txt')));
      assert.equal(readFileSync(join(notes, 'hello.txt'), 'utf8'), 'from the e2e model');
      const toolCard = wb.inWebview('group', 'Tool: mcp__e2e__write_note').last();
      await poll('the tool card with the result', async () => (await toolCard.innerText()).includes('saved hello.txt'));
      await poll('the final answer', async () =>
        (await wb.articles('Sextant').last().innerText()).includes('The note is saved.'),
      );

      // The status view: the server, its state and its tools.
      await wb.runPaletteCommand('Sextant: MCP Servers', { opensInput: true });
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'e2e' }).first();
      await waitUntil('the server in Sextant: MCP Servers', () => row.waitFor({ state: 'visible', timeout: 15_000 }));
      assert.match(await row.innerText(), /connected · \d+ tools/);
      await row.click();
      const tool = page.locator('.quick-input-list .monaco-list-row', { hasText: 'mcp__e2e__write_note' }).first();
      await waitUntil('the tool list of the server', () => tool.waitFor({ state: 'visible', timeout: 15_000 }));
      await wb.screenshot('mcp-status');
      await page.keyboard.press('Escape');

      // Removing the file stops the server; later scenarios see no MCP tools.
      rmSync(join(workspace, '.mcp.json'));
      rmSync(outside, { recursive: true, force: true });
    },
    { timeoutMs: 180_000 },
  );
}
