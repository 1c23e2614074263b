// Issue 35 item 3, as a user meets it: a cloned repository whose CLAUDE.md is a link to a private key
// outside it, and whose AGENTS.md imports a link to /proc/self/environ. The user says "hi": nothing of
// the key nor of the extension host's environment reaches the model's request, a key pasted into a
// rules file goes redacted, and the chat says which rules files were skipped and why.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { E2E_ENV_MARKER, type E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

/** What the "private key" outside the workspace holds: recognisable, and no shape the redactor knows. */
const FAKE_KEY = 'FAKE-PRIVATE-KEY-MATERIAL-e2e-40d7b9';
/** A key-shaped token written into AGENTS.md itself: the redactor's last line of defence. */
const RULES_TOKEN = `ghp_${'e2eRulesToken0'.repeat(3)}`;

export function repositoryLinkScenarios(e2e: E2E): void {
  e2e.scenario(
    'Repository links: CLAUDE.md -> a key and an import -> /proc/self/environ stay out of the request; ' +
      'the chat says why',
    async ({ wb, fake, workspace }) => {
      const keyDir = join(dirname(workspace), 'outside-keys');
      mkdirSync(keyDir, { recursive: true });
      writeFileSync(join(keyDir, 'id_rsa'), `${FAKE_KEY}\n`);
      symlinkSync(join(keyDir, 'id_rsa'), join(workspace, 'CLAUDE.md'));
      wb.writeWorkspaceFile(
        'AGENTS.md',
        `# Conventions\nLINKS-RULE-MARKER. Read @docs/env.md first.\nDeploy token: ${RULES_TOKEN}\n`,
      );
      mkdirSync(join(workspace, 'docs'), { recursive: true });
      symlinkSync('/proc/self/environ', join(workspace, 'docs', 'env.md'));
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        const chat = wb.inWebview('radio', 'Chat');
        await waitUntil('the Chat mode radio', () => chat.check({ timeout: 15_000 }));

        const before = fake.requests.length;
        fake.enqueue({ text: 'Hello from the fake model.' });
        await wb.typeMessage('hi');
        const answer = wb.articles('Sextant').last();
        await poll('the answer', async () => (await answer.innerText()).includes('Hello from the fake model'));

        const bodies = fake.requests.slice(before).map((r) => JSON.stringify(r.body));
        assert.ok(bodies.length >= 1, 'a model request was made');
        assert.ok(
          bodies.some((b) => b.includes('LINKS-RULE-MARKER')),
          'the rules file inside the workspace still reaches the model',
        );
        for (const body of bodies) {
          assert.ok(!body.includes(FAKE_KEY), 'the linked key file never reaches the model');
          assert.ok(!body.includes(E2E_ENV_MARKER), "the extension host's environment never reaches the model");
          assert.ok(!body.includes(RULES_TOKEN), 'a key in a rules file goes redacted');
        }

        // The chat says which files were skipped and why.
        const claudeNotice =
          /Rules file CLAUDE\.md skipped: not read \(it is a link to .*id_rsa\): a workspace file must stay inside/;
        await poll('the notice naming CLAUDE.md', async () => claudeNotice.test(await answer.innerText()));
        const envNotice =
          /Rules file docs\/env\.md skipped: not read \(it is a link to \/proc\/.*environ\).*holds keys/;
        await poll('the notice naming docs/env.md', async () => envNotice.test(await answer.innerText()));
      } finally {
        for (const rel of ['CLAUDE.md', 'AGENTS.md', 'docs'])
          rmSync(join(workspace, rel), { recursive: true, force: true });
        rmSync(keyDir, { recursive: true, force: true });
      }
    },
  );
}
