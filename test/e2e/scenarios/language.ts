// The editor's language intelligence as the agent uses it, in TypeScript files (VS Code's built-in
// TypeScript support): references finds the call sites, an edit that breaks the types gets the
// compiler's error back in the same step's result — seen in what the model is sent next — and rename
// proposes a change of both files, shown in the diff review (a diff per file) and written on Approve.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { E2E } from '../harness/e2e';
import { poll, waitUntil } from '../harness/workbench';

const SHAPES = 'export function area(w: number, h: number): number {\n  return w * h;\n}\n';
const USE = "import { area } from './shapes';\n\nexport const small = area(1, 2);\nexport const big = area(10, 20);\n";

export function languageScenarios(e2e: E2E): void {
  e2e.scenario(
    'Language features: references returns the call sites; an edit that breaks the types gets the TypeScript error ' +
      'back in its result; rename proposes a change of both files in the diff review',
    async ({ wb, page, fake, workspace }) => {
      wb.writeWorkspaceFile('src/lsp/shapes.ts', SHAPES);
      wb.writeWorkspaceFile('src/lsp/use.ts', USE);
      // A project, as real TypeScript code has: without one, each file opened alone is its own
      // inferred project and shapes.ts's references would not include use.ts (seen in code-server).
      wb.writeWorkspaceFile('src/lsp/tsconfig.json', '{ "compilerOptions": { "strict": true, "noEmit": true } }\n');
      try {
        await wb.openSextantView();
        await wb.runPaletteCommand('Sextant: New Chat');
        const agent = wb.inWebview('radio', 'Agent');
        await waitUntil('the Agent mode radio', () => agent.check({ timeout: 15_000 }));
        // TypeScript answers from a partial (syntax-only) project while it loads, where references finds
        // the declaration alone. Wait for that state to pass, as a user would, by asking until the call
        // sites are in the answer (each round a short turn of its own; no sleeping).
        await wb.openFile('src/lsp/use.ts');
        let round = 0;
        const refs = await poll(
          'TypeScript to find the call sites of area (references in 2 files)',
          async () => {
            round++;
            const at = fake.requests.length;
            fake.enqueue(
              {
                toolCalls: [{ name: 'references', arguments: { path: 'src/lsp/shapes.ts', line: 1, symbol: 'area' } }],
              },
              { text: `Looked, round ${round}.` },
            );
            await wb.typeMessage(`Where is area used? (round ${round})`);
            await poll(
              `the answer of round ${round}`,
              async () => (await wb.articles('Sextant').last().innerText()).includes(`Looked, round ${round}.`),
              90_000,
            );
            const body = JSON.stringify(fake.requests[at + 1]?.body ?? {});
            return /\d references in 2 files/.test(body) ? body : undefined;
          },
          180_000,
        );
        // The references result: both call sites (1-based line:col), the import and the declaration.
        assert.match(refs, /src\/lsp\/use\.ts:1:10 {2}import \{ area \} from/);
        assert.match(refs, /src\/lsp\/shapes\.ts:1:17 {2}export function area/);
        assert.match(refs, /src\/lsp\/use\.ts:3:22 {2}export const small = area\(1, 2\);/);
        assert.match(refs, /src\/lsp\/use\.ts:4:20 {2}export const big = area\(10, 20\);/);

        const before = fake.requests.length;
        fake.enqueue(
          { toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/lsp/use.ts' } }] },
          {
            toolCalls: [
              {
                name: 'edit_file',
                arguments: { file_path: 'src/lsp/use.ts', old_string: 'area(10, 20)', new_string: "area('10', 20)" },
              },
            ],
          },
          { text: 'Checked the call sites.' },
        );
        await wb.typeMessage('Now pass a string to the second call');
        await poll(
          'the approval card for edit_file',
          async () => (await wb.inWebview('group', 'Approval: edit_file').count()) === 1,
          90_000,
        );
        await wb.clickInWebview('button', 'Approve');
        await poll(
          'the final answer',
          async () => (await wb.articles('Sextant').last().innerText()).includes('Checked the call sites'),
          90_000,
        );
        const told = (i: number) => JSON.stringify(fake.requests[before + i]?.body ?? {});
        // The edit's result, in the very next request, carries the compiler's new error.
        const edited = told(2);
        assert.match(edited, /New problems after this edit \(1 error\)/, edited.slice(-1500));
        assert.match(edited, /src\/lsp\/use\.ts:4:\d+ error \[ts 2345\] Argument of type/);

        // rename: TypeScript's rename provider names both files; one card, a diff per file, one Approve.
        const beforeRename = fake.requests.length;
        fake.enqueue(
          {
            toolCalls: [
              {
                name: 'rename',
                arguments: { path: 'src/lsp/shapes.ts', line: 1, symbol: 'area', new_name: 'surface' },
              },
            ],
          },
          { text: 'Renamed area to surface.' },
        );
        await wb.typeMessage('Rename area to surface');
        const card = wb.inWebview('group', 'Approval: rename');
        await poll('the approval card for rename', async () => (await card.count()) === 1, 90_000);
        const files = card.getByRole('list', { name: 'Changed files' });
        await poll('both files on the card', async () => (await files.getByRole('listitem').count()) === 2);
        assert.match(await files.innerText(), /src\/lsp\/shapes\.ts[\s\S]*src\/lsp\/use\.ts/);
        assert.match(await card.innerText(), /\+export function surface\(/);
        const tabs = page.locator('.tabs-container .tab', { hasText: "Sextant's proposal" });
        await poll('a diff tab per file in the diff review', async () => (await tabs.count()) === 2, 30_000);
        assert.match(wb.readWorkspaceFile('src/lsp/shapes.ts'), /function area/, 'nothing written before approval');
        await card.getByRole('button', { name: 'Approve' }).click();
        await poll(
          'the answer after the rename',
          async () => (await wb.articles('Sextant').last().innerText()).includes('Renamed area to surface.'),
          90_000,
        );
        assert.match(wb.readWorkspaceFile('src/lsp/shapes.ts'), /export function surface\(w: number/);
        const use = wb.readWorkspaceFile('src/lsp/use.ts');
        assert.match(use, /surface\(1, 2\)/);
        assert.doesNotMatch(use, /\barea\(/);
        const renamed = JSON.stringify(fake.requests[beforeRename + 1]?.body ?? {});
        assert.match(renamed, /Changed 2 files: src\/lsp\/shapes\.ts \(\+1 −1\), src\/lsp\/use\.ts/);
        await poll('the diff tabs closed', async () => (await tabs.count()) === 0, 30_000);
      } finally {
        // The TypeScript files' editors are closed before their folder goes: with a deleted file left open
        // in the editor, the next scenario's user settings.json opened as a modal editor over the
        // workbench (seen in code-server 1.139), out of the harness's reach.
        await wb.runPaletteCommand('View: Close All Editors').catch(() => undefined);
        rmSync(join(workspace, 'src/lsp'), { recursive: true, force: true });
      }
    },
    { timeoutMs: 240_000 },
  );
}
