// rename's edit → proposed change conversion and its application, with the real file code on a
// temporary workspace and a scripted rename provider (test/fixtures/fake-language.ts): every file's
// new content, workspace-relative; the writers' refusals (outside the workspace, binary); file
// operations, no provider, a refused position said clearly; an approved change applied all or nothing,
// a failed write putting back the files already written; every file checkpointed before it changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, rmSync } from 'node:fs';
import * as path from 'node:path';
import { renameTool } from '../../../extension/core/tools/rename';
import type { ChangeSet } from '../../../extension/core/tools/types';
import { applyChangeSet, applyTextEdits, MAX_CHANGE_FILES } from '../../../extension/core/tools/util/change-set';
import { createNodePorts, makeContext, makeTempWorkspace } from '../../fixtures/node-ports';
import { FakeLanguage, renameEditsOf } from '../../fixtures/fake-language';

const SHAPES = 'export function area(w: number, h: number) {\n  return w * h;\n}\n';
const USE = "import { area } from './shapes';\r\nexport const a = area(1, 2);\r\nexport const b = area(3, 4);\r\n";

async function setup(t: { after(fn: () => void): void }, files: Record<string, string> = {}) {
  const root = await makeTempWorkspace({ 'src/shapes.ts': SHAPES, 'src/use.ts': USE, ...files });
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const lang = new FakeLanguage();
  const ports = createNodePorts({ root });
  ports.language = lang;
  const ctx = makeContext(ports);
  const abs = (rel: string) => path.join(root, rel);
  lang.renameEdits = [
    renameEditsOf(abs('src/use.ts'), USE, 'area', 'surface'),
    renameEditsOf(abs('src/shapes.ts'), SHAPES, 'area', 'surface'),
  ];
  const read = (rel: string) => fs.readFile(abs(rel), 'utf8');
  return { root, lang, ports, ctx, abs, read };
}

const ARGS = { path: 'src/shapes.ts', line: 1, symbol: 'area', new_name: 'surface' };

test('text edits apply by line and column: several per line, CRLF kept, out of order; overlapping refused', () => {
  const text = 'a b a\r\nb a\r\n';
  const at = (line: number, character: number, len: number, newText: string) => ({
    range: { start: { line, character }, end: { line, character: character + len } },
    newText,
  });
  assert.equal(applyTextEdits(text, [at(1, 2, 1, 'Z'), at(0, 0, 1, 'Z'), at(0, 4, 1, 'Z')], 'x'), 'Z b Z\r\nb Z\r\n');
  assert.throws(() => applyTextEdits(text, [at(0, 0, 3, 'Q'), at(0, 2, 1, 'R')], 'x.ts'), /edits of x\.ts overlap/);
  assert.throws(() => applyTextEdits(text, [at(9, 0, 1, 'Q')], 'x.ts'), /line 10, which the file does not have/);
});

test(
  'the provider’s edit becomes every file’s new content, workspace-relative ' +
    'and sorted; the policy is given every file',
  async (t) => {
    const { ctx, lang, abs } = await setup(t);
    const set = (await renameTool.proposeChanges?.(ARGS, ctx)) as ChangeSet;
    assert.deepEqual(
      set.files.map((f) => [f.displayPath, f.isNew]),
      [
        ['src/shapes.ts', false],
        ['src/use.ts', false],
      ],
    );
    assert.equal(set.files[0].after, SHAPES.replace('area', 'surface'));
    assert.equal(set.files[1].after, USE.replace(/area/g, 'surface'), 'CRLF and every call site');
    assert.equal(set.files[1].before, USE);
    // The position asked: `area` on line 1 of shapes.ts, 0-based.
    assert.deepEqual(lang.asked.at(-1), {
      what: 'rename:surface',
      path: abs('src/shapes.ts'),
      at: { line: 0, character: 16 },
    });
    // What the policy judges names every file the change writes (permission.paths).
    assert.deepEqual(renameTool.permission.paths?.(set.judgedInput as never), [
      'src/shapes.ts',
      abs('src/shapes.ts'),
      abs('src/use.ts'),
    ]);
  },
);

test(
  'refused whole, nothing proposed: a file outside the workspace, ' + 'a binary file, file operations, too many files',
  async (t) => {
    const { ctx, lang, abs, root } = await setup(t, { 'src/blob.ts': '\u0000\u0001binary' });
    const outsideDir = await makeTempWorkspace({ 'lib.ts': 'export const area = 1;\n' });
    t.after(() => rmSync(outsideDir, { recursive: true, force: true }));
    const outside = path.join(outsideDir, 'lib.ts');
    const propose = () => renameTool.proposeChanges?.(ARGS, ctx) as Promise<ChangeSet>;
    lang.renameEdits.push(renameEditsOf(outside, 'export const area = 1;\n', 'area', 'surface'));
    // The writers' own rule (loadForWrite → assertWritable), word for word.
    await assert.rejects(propose(), /Refused: .*lib\.ts is outside the workspace folders .*Writers may only change/);
    lang.renameEdits.pop();
    lang.renameEdits.push({ path: abs('src/blob.ts'), edits: [] });
    await assert.rejects(propose(), /Refused to rename src\/blob\.ts: it is a binary file/);
    lang.renameEdits.pop();
    lang.renameUnsupported = [`it renames the file ${abs('src/shapes.ts')} to ${abs('src/surface.ts')}`];
    await assert.rejects(propose(), /does more than change text — it renames the file .*shapes\.ts to .*surface\.ts/);
    lang.renameUnsupported = [];
    const many = Array.from({ length: MAX_CHANGE_FILES + 1 }, (_, k) => ({
      path: path.join(root, `f${k}.ts`),
      edits: [],
    }));
    const saved = lang.renameEdits;
    lang.renameEdits = many;
    await assert.rejects(
      propose(),
      new RegExp(`would change ${MAX_CHANGE_FILES + 1} files; at most ${MAX_CHANGE_FILES}`),
    );
    lang.renameEdits = saved;
    assert.ok(await propose(), 'the same rename without them is proposed');
  },
);

test('a position where rename is not possible, and a language without a rename provider, say so', async (t) => {
  const { ctx, lang } = await setup(t, { 'notes.txt': 'area of the plot\n' });
  lang.renameRefusal = 'You cannot rename this element.';
  const refused = await renameTool.execute(ARGS, ctx);
  assert.equal(refused.isError, true);
  assert.match(refused.forUi, /Cannot rename at src\/shapes\.ts:1:17: You cannot rename this element\./);
  lang.renameRefusal = undefined;
  lang.noRenameProvider = true;
  const none = await renameTool.execute(ARGS, ctx);
  assert.match(none.forUi, /the rename provider for "typescript" returned no edits/);
  const plain = new FakeLanguage({ support: () => ({ languageId: 'plaintext', diagnostics: false }) });
  plain.noRenameProvider = true;
  ctx.ports.language = plain;
  const text = await renameTool.execute({ path: 'notes.txt', line: 1, symbol: 'area', new_name: 'size' }, ctx);
  assert.match(
    text.forUi,
    /VS Code has no language support for notes\.txt \(language "plaintext"\), so no rename provider/,
  );
  ctx.ports.language = undefined;
  assert.match((await renameTool.execute(ARGS, ctx)).forUi, /needs the editor's language features/);
});

test(
  'applied all or nothing: a file changed since the proposal ' +
    'refuses every file; a failed write puts back the others',
  async (t) => {
    const { ctx, ports, abs, read } = await setup(t);
    const checkpointed: string[] = [];
    ctx.beforeWrite = async (p) => void checkpointed.push(p);
    const set = (await renameTool.proposeChanges?.(ARGS, ctx)) as ChangeSet;

    // Changed under review: nothing is written.
    await fs.writeFile(abs('src/use.ts'), `${USE}// touched\n`);
    const stale = await applyChangeSet(ctx, set);
    assert.equal(stale.isError, true);
    assert.match(stale.forUi, /Not applied: src\/use\.ts changed while the user was reviewing/);
    assert.equal(await read('src/shapes.ts'), SHAPES);
    assert.deepEqual(checkpointed, []);
    await fs.writeFile(abs('src/use.ts'), USE);

    // The second write fails: the first file is put back.
    const apply = ports.workspace.applyTextEdit.bind(ports.workspace);
    ports.workspace.applyTextEdit = async (p, text, bytes) => {
      if (p === abs('src/use.ts')) throw new Error('disk full');
      return apply(p, text, bytes);
    };
    const failed = await applyChangeSet(ctx, set);
    assert.equal(failed.isError, true);
    assert.match(
      failed.forUi,
      /the 1 file already written were put back\. src\/use\.ts could not be written: disk full/,
    );
    assert.equal(await read('src/shapes.ts'), SHAPES);
    assert.equal(await read('src/use.ts'), USE);

    // Every file is checkpointed before it changes; with the user's edit of one file, theirs is written.
    ports.workspace.applyTextEdit = apply;
    checkpointed.length = 0;
    const mine = USE.replace(/area/g, 'surface').replace(/\r\n/g, '\n').replace('(3, 4)', '(30, 40)');
    const done = await applyChangeSet(ctx, set, { [abs('src/use.ts')]: mine }, 'Renamed in');
    assert.equal(done.isError, false, done.forUi);
    assert.deepEqual(checkpointed, [abs('src/shapes.ts'), abs('src/use.ts')]);
    assert.equal(await read('src/shapes.ts'), SHAPES.replace('area', 'surface'));
    assert.equal(await read('src/use.ts'), mine.replace(/\n/g, '\r\n'), 'the user’s text, in the file’s line endings');
    assert.match(
      String(done.forModel),
      /^Renamed in 2 files: src\/shapes\.ts \(\+1 −1\), src\/use\.ts \(\+3 −3\), with the user’s edits\./,
    );
    assert.match(String(done.forModel), /The user edited your proposal[\s\S]*\+export const b = surface\(30, 40\);/);
  },
);
