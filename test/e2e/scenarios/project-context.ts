// A repository that already has an AGENTS.md, a Claude Code command and a skill: the rules reach the
// model's request, `/explain src` reaches it expanded, the skill is listed, and Up brings the prompt back.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { lastUserText } from '../../fixtures/fake-llm';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

/** The system prompt of a request in either wire format (OpenAI: a system message; Anthropic: `system`). */
const systemOf = (body: unknown): string => {
  const b = body as { system?: unknown; messages?: Array<{ role: string; content: unknown }> };
  const messages = (b.messages ?? []).filter((m) => m.role === 'system').map((m) => m.content);
  return JSON.parse(JSON.stringify([b.system ?? '', ...messages]))
    .flat(3)
    .map((x: unknown) => (typeof x === 'string' ? x : ((x as { text?: string }).text ?? '')))
    .join('\n');
};

export function projectContextScenarios(e2e: E2E): void {
  e2e.scenario(
    'Project files: AGENTS.md reaches the model, /explain src expands, skill listed, Up recalls, @ attaches a file',
    async ({ wb, fake, workspace }) => {
      wb.writeWorkspaceFile('AGENTS.md', '# Conventions\nRULES-MARKER: name the file you talk about.\n');
      wb.writeWorkspaceFile(
        '.claude/commands/explain.md',
        '---\ndescription: Explain a folder\nargument-hint: <path>\n---\n' +
          'Explain in detail what the code in $ARGUMENTS does.\n',
      );
      wb.writeWorkspaceFile(
        '.claude/skills/tidy-imports/SKILL.md',
        '---\nname: tidy-imports\ndescription: Sort and group import statements\n---\nSort imports.\n',
      );
      wb.writeWorkspaceFile('src/ref-marker.ts', 'export const marker = "REF-MARKER-CONTENT-4711";\n');
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        const agent = wb.inWebview('radio', 'Agent');
        await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));

        // The `/` menu lists the workspace's command next to the built-ins.
        await wb.typeMessage('/expl', { send: false });
        await poll(
          'the /explain entry in the commands menu',
          async () => (await wb.inWebview('option', /^\/explain\b/).count()) === 1,
          30_000,
        );

        const before = fake.requests.length;
        fake.enqueue({ text: 'The **src** folder greets people.' });
        await wb.typeMessage('/explain src');
        await poll('the answer', async () => (await wb.articles('Sextant').last().innerText()).includes('greets'));
        const req = fake.requests.slice(before).find((r) => r.api === 'openai' || r.api === 'anthropic');
        assert.ok(req, 'a model request was made');
        assert.match(systemOf(req.body), /RULES-MARKER: name the file you talk about\./);
        assert.match(systemOf(req.body), /tidy-imports: Sort and group import statements/);
        assert.ok(!systemOf(req.body).includes('Sort imports.'), 'a skill body is loaded on demand only');
        assert.equal(lastUserText(req.body), 'Explain in detail what the code in src does.');

        // Up in the empty composer brings the last prompt back as typed.
        const box = wb.inWebview('textbox', 'Message');
        await box.click();
        await box.press('ArrowUp');
        await poll('the last prompt back in the composer', async () => (await box.inputValue()) === '/explain src');
        await box.press('ArrowDown');
        assert.equal(await box.inputValue(), '');

        // `@` autocomplete: the file offered by the host's search becomes a chip, and its content reaches the
        // model with the user's message (not the system prompt). The context meter is in the header.
        await wb.typeMessage('What is in @ref-mark', { send: false });
        const option = wb.inWebview('option', /@src\/ref-marker\.ts/);
        await poll('the file offered in the @ listbox', async () => (await option.count()) === 1, 30_000);
        await box.press('Enter');
        await poll('the file chip', async () =>
          (await wb.inWebview('list', 'References').innerText()).includes('@src/ref-marker.ts'),
        );
        await box.pressSequentially('this file?', { delay: 5 });
        const beforeRef = fake.requests.length;
        fake.enqueue({ text: 'It exports the reference marker.' });
        await box.press('Enter');
        await poll('the answer about the file', async () =>
          (await wb.articles('Sextant').last().innerText()).includes('reference marker'),
        );
        const refReq = fake.requests.slice(beforeRef).find((r) => r.api === 'openai' || r.api === 'anthropic');
        assert.ok(refReq, 'a model request was made');
        const userText = lastUserText(refReq.body);
        assert.match(userText, /^What is in this file\?\n\nAttached by the user with @/);
        assert.match(userText, /REF-MARKER-CONTENT-4711/);
        assert.ok(!systemOf(refReq.body).includes('REF-MARKER-CONTENT-4711'), 'not in the system prompt');
        await poll('the sent message shows its chip', async () =>
          (await wb.articles('You').last().innerText()).includes('@src/ref-marker.ts'),
        );
        await poll('the context meter', async () => (await wb.inWebview('meter', 'Context').count()) === 1, 30_000);
      } finally {
        for (const rel of ['AGENTS.md', '.claude', 'src/ref-marker.ts'])
          rmSync(join(workspace, rel), { recursive: true, force: true });
      }
    },
  );
}
