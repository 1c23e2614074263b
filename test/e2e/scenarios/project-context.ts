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
    'Project files: AGENTS.md reaches the model, /explain src expands, the skill is listed, Up recalls the prompt',
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
      } finally {
        for (const rel of ['AGENTS.md', '.claude']) rmSync(join(workspace, rel), { recursive: true, force: true });
      }
    },
  );
}
