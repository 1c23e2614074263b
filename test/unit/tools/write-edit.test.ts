import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { readFileTool } from '../../../extension/core/tools/read-file';
import { writeFileTool } from '../../../extension/core/tools/write-file';
import { editFileTool } from '../../../extension/core/tools/edit-file';
import { multiEditTool } from '../../../extension/core/tools/multi-edit';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';

async function setup(files: Record<string, string | Uint8Array> = {}) {
  const root = await makeTempWorkspace(files);
  const ports = createNodePorts({ root });
  return { root, ports, ctx: makeContext(ports), read: (p: string) => fs.readFile(path.join(root, p)) };
}

test('write_file creates files and parent folders', async () => {
  const { ctx, read } = await setup();
  const r = await writeFileTool.execute({ file_path: 'src/deep/new.ts', content: 'export const a = 1;\n' }, ctx);
  assert.equal(r.isError, false, textOf(r));
  assert.match(textOf(r), /Created src\/deep\/new\.ts \(\+1\)/);
  assert.equal((await read('src/deep/new.ts')).toString(), 'export const a = 1;\n');
});

test('write_file refuses to overwrite a file that was not read in this session', async () => {
  const { ctx, read } = await setup({ 'keep.txt': 'precious\n' });
  const r = await writeFileTool.execute({ file_path: 'keep.txt', content: 'oops' }, ctx);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /has not been read in this session/);
  assert.equal((await read('keep.txt')).toString(), 'precious\n');
  await readFileTool.execute({ file_path: 'keep.txt' }, ctx);
  const ok = await writeFileTool.execute({ file_path: 'keep.txt', content: 'replaced\n' }, ctx);
  assert.equal(ok.isError, false, textOf(ok));
  assert.equal((await read('keep.txt')).toString(), 'replaced\n');
});

test('write_file and edit_file refuse a file that changed on disk since it was read', async () => {
  const { root, ctx, read } = await setup({ 'f.txt': 'one\n' });
  await readFileTool.execute({ file_path: 'f.txt' }, ctx);
  await fs.writeFile(path.join(root, 'f.txt'), 'someone else wrote this\n');
  const w = await writeFileTool.execute({ file_path: 'f.txt', content: 'mine\n' }, ctx);
  assert.equal(w.isError, true);
  assert.match(textOf(w), /changed on disk since you last read it/);
  const e = await editFileTool.execute({ file_path: 'f.txt', old_string: 'someone', new_string: 'no one' }, ctx);
  assert.equal(e.isError, true);
  assert.match(textOf(e), /changed on disk/);
  assert.equal((await read('f.txt')).toString(), 'someone else wrote this\n');
});

test('write_file will not empty a non-empty file unless allow_empty is set', async () => {
  const { ctx, read } = await setup({ 'f.txt': 'content\n' });
  await readFileTool.execute({ file_path: 'f.txt' }, ctx);
  const r = await writeFileTool.execute({ file_path: 'f.txt', content: '' }, ctx);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /allow_empty/);
  assert.equal((await read('f.txt')).toString(), 'content\n');
  const ok = await writeFileTool.execute({ file_path: 'f.txt', content: '', allow_empty: true }, ctx);
  assert.equal(ok.isError, false);
  assert.equal((await read('f.txt')).length, 0);
});

test('writers refuse paths outside the workspace, including through a symlink', async () => {
  const outside = await makeTempWorkspace({ 'secret.txt': 'x' });
  const { root, ctx } = await setup({});
  symlinkSync(outside, path.join(root, 'link'));
  const abs = await writeFileTool.execute({ file_path: path.join(outside, 'new.txt'), content: 'x' }, ctx);
  assert.equal(abs.isError, true);
  assert.match(textOf(abs), /outside the workspace folders/);
  const viaLink = await writeFileTool.execute({ file_path: 'link/new.txt', content: 'x' }, ctx);
  assert.equal(viaLink.isError, true);
  assert.match(textOf(viaLink), /through a symbolic link/);
  await assert.rejects(fs.stat(path.join(outside, 'new.txt')));
});

test('edit_file replaces a unique match and reports a diff', async () => {
  const { ctx, read } = await setup({ 'a.ts': 'const a = 1;\nconst b = 2;\n' });
  await readFileTool.execute({ file_path: 'a.ts' }, ctx);
  const r = await editFileTool.execute(
    { file_path: 'a.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' },
    ctx,
  );
  assert.equal(r.isError, false, textOf(r));
  assert.match(r.forUi, /-const b = 2;\n\+const b = 3;/);
  assert.equal((await read('a.ts')).toString(), 'const a = 1;\nconst b = 3;\n');
});

test('edit_file requires the file to have been read', async () => {
  const { ctx } = await setup({ 'a.ts': 'x\n' });
  const r = await editFileTool.execute({ file_path: 'a.ts', old_string: 'x', new_string: 'y' }, ctx);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /Read it with read_file first/);
});

test('an ambiguous edit lists every occurrence; replace_all changes them all', async () => {
  const { ctx, read } = await setup({ 'a.py': 'x = 1\nprint(x)\ny = 1\nz = 1\n' });
  await readFileTool.execute({ file_path: 'a.py' }, ctx);
  const r = await editFileTool.execute({ file_path: 'a.py', old_string: ' = 1', new_string: ' = 2' }, ctx);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /occurs 3 times/);
  assert.match(textOf(r), /line 1: x = 1\n {2}line 3: y = 1\n {2}line 4: z = 1/);
  const all = await editFileTool.execute(
    { file_path: 'a.py', old_string: ' = 1', new_string: ' = 2', replace_all: true },
    ctx,
  );
  assert.equal(all.isError, false);
  assert.equal((await read('a.py')).toString(), 'x = 2\nprint(x)\ny = 2\nz = 2\n');
});

test('an absent old_string shows the closest candidates', async () => {
  const src = [
    'function add(a, b) {',
    '  return a + b;',
    '}',
    '',
    'function sub(a, b) {',
    '  return a - b;',
    '}',
    '',
  ].join('\n');
  const { ctx } = await setup({ 'm.js': src });
  await readFileTool.execute({ file_path: 'm.js' }, ctx);
  const ws = await editFileTool.execute(
    { file_path: 'm.js', old_string: 'function sub(a, b) {\n    return a - b;\n}', new_string: 'x' },
    ctx,
  );
  assert.equal(ws.isError, true);
  assert.match(textOf(ws), /different whitespace or indentation at line 5/);
  const fuzzy = await editFileTool.execute(
    { file_path: 'm.js', old_string: 'function subtract(a, b) {\n  return a - b;', new_string: 'x' },
    ctx,
  );
  assert.equal(fuzzy.isError, true);
  assert.match(textOf(fuzzy), /closest candidates/);
  assert.match(textOf(fuzzy), /Candidate at line 5 .*\n {5}5\tfunction sub\(a, b\) \{\n {5}6\t {2}return a - b;/);
  const numbered = await editFileTool.execute(
    { file_path: 'm.js', old_string: '     2\t  return a + b;', new_string: 'x' },
    ctx,
  );
  assert.match(textOf(numbered), /line-number prefixes/);
});

test('failed edits are cheap: a plain summary for the card, one retry hint, then "stop guessing"', async () => {
  const src = 'function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';
  const { ctx, read } = await setup({ 'm.js': src, 'other.js': 'let v = 1;\n' });
  await readFileTool.execute({ file_path: 'm.js' }, ctx);
  await readFileTool.execute({ file_path: 'other.js' }, ctx);
  const miss = { file_path: 'm.js', old_string: 'function subtract(a, b) {\n  return a - b;', new_string: 'x' };
  const first = await editFileTool.execute(miss, ctx);
  assert.equal(first.isError, true);
  assert.match(first.summary ?? '', /^old_string not found; closest: line 5 \(\d+ %\)/);
  assert.match(textOf(first), /Retry once, with old_string copied exactly/);
  assert.doesNotMatch(textOf(first), /Do not guess/);
  // Another file's failures are counted on their own.
  const elsewhere = await editFileTool.execute({ file_path: 'other.js', old_string: 'let w', new_string: 'x' }, ctx);
  assert.match(textOf(elsewhere), /Retry once/);
  const second = await multiEditTool.execute({ file_path: 'm.js', edits: [miss] }, ctx);
  assert.match(textOf(second), /This is failed edit 2 in a row on m\.js\. Do not guess old_string again/);
  assert.match(second.summary ?? '', /failure 2 in a row on this file$/);
  const ambiguous = await editFileTool.execute({ file_path: 'm.js', old_string: '(a, b) {', new_string: 'x' }, ctx);
  assert.match(ambiguous.summary ?? '', /^old_string occurs 2 times \(lines 1, 5\) — failure 3 in a row/);
  assert.equal((await read('m.js')).toString(), src, 'nothing was written');
  // A successful edit ends the run: the next miss gets the retry hint again.
  const ok = await editFileTool.execute({ file_path: 'm.js', old_string: 'a - b', new_string: 'b - a' }, ctx);
  assert.equal(ok.isError, false, textOf(ok));
  assert.equal(ok.summary, undefined);
  const again = await editFileTool.execute(miss, ctx);
  assert.match(textOf(again), /Retry once/);
  // Failures that are not mismatches (a file not read) carry no card summary and are not counted.
  const unread = await setup({ 'u.js': 'x\n' });
  const notRead = await editFileTool.execute({ file_path: 'u.js', old_string: 'x', new_string: 'y' }, unread.ctx);
  assert.equal(notRead.summary, undefined);
  assert.doesNotMatch(textOf(notRead), /Retry once/);
});

test('edit_file keeps CRLF line endings and a UTF-8 BOM', async () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  const { ctx, read } = await setup({ 'w.cs': Buffer.concat([bom, Buffer.from('class A {\r\n  int x;\r\n}\r\n')]) });
  await readFileTool.execute({ file_path: 'w.cs' }, ctx);
  const r = await editFileTool.execute(
    { file_path: 'w.cs', old_string: '  int x;\n}', new_string: '  int x;\n  int y;\n}' },
    ctx,
  );
  assert.equal(r.isError, false, textOf(r));
  const bytes = await read('w.cs');
  assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  assert.equal(bytes.subarray(3).toString(), 'class A {\r\n  int x;\r\n  int y;\r\n}\r\n');
});

test('edit_file keeps UTF-16LE and Latin-1 encodings', async () => {
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo wörld\n', 'utf16le')]);
  const latin1 = Buffer.from('café = 1\n', 'latin1');
  const { ctx, read } = await setup({ 'u16.txt': utf16, 'l1.txt': latin1 });
  await readFileTool.execute({ file_path: 'u16.txt' }, ctx);
  await readFileTool.execute({ file_path: 'l1.txt' }, ctx);
  assert.equal(
    (await editFileTool.execute({ file_path: 'u16.txt', old_string: 'wörld', new_string: 'wörld!' }, ctx)).isError,
    false,
  );
  assert.equal(
    (await editFileTool.execute({ file_path: 'l1.txt', old_string: '= 1', new_string: '= 2' }, ctx)).isError,
    false,
  );
  const u = await read('u16.txt');
  assert.deepEqual([...u.subarray(0, 2)], [0xff, 0xfe]);
  assert.equal(u.subarray(2).toString('utf16le'), 'héllo wörld!\n');
  assert.deepEqual(await read('l1.txt'), Buffer.from('café = 2\n', 'latin1'));
});

test('edit_file never empties a file unless the whole content was replaced by nothing', async () => {
  const { ctx, read } = await setup({ 'a.txt': 'aaa', 'b.txt': 'whole\n' });
  await readFileTool.execute({ file_path: 'a.txt' }, ctx);
  const r = await editFileTool.execute({ file_path: 'a.txt', old_string: 'a', new_string: '', replace_all: true }, ctx);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /would leave a\.txt empty/);
  assert.equal((await read('a.txt')).toString(), 'aaa');
  await readFileTool.execute({ file_path: 'b.txt' }, ctx);
  const ok = await editFileTool.execute({ file_path: 'b.txt', old_string: 'whole\n', new_string: '' }, ctx);
  assert.equal(ok.isError, false, textOf(ok));
  assert.equal((await read('b.txt')).length, 0);
});

test('edit_file applies through the editor when the document is open and dirty', async () => {
  const { root, ports, ctx, read } = await setup({ 'o.ts': 'let v = 1;\n' });
  const abs = path.join(root, 'o.ts');
  ports.workspace.dirty.set(abs, 'let v = 1;\nlet w = 2;\n');
  await readFileTool.execute({ file_path: 'o.ts' }, ctx);
  const r = await editFileTool.execute({ file_path: 'o.ts', old_string: 'let w = 2;', new_string: 'let w = 3;' }, ctx);
  assert.equal(r.isError, false, textOf(r));
  assert.deepEqual(ports.workspace.applied, [{ path: abs, via: 'editor' }]);
  assert.match(textOf(r), /Undo reverts it/);
  // The unsaved line is kept: the edit was made on what the user sees.
  assert.equal((await read('o.ts')).toString(), 'let v = 1;\nlet w = 3;\n');
});

test('multi_edit applies edits in order, and rolls back entirely when one fails', async () => {
  const { ctx, read } = await setup({ 'c.ts': 'alpha\nbeta\ngamma\n' });
  await readFileTool.execute({ file_path: 'c.ts' }, ctx);
  const bad = await multiEditTool.execute(
    {
      file_path: 'c.ts',
      edits: [
        { old_string: 'alpha', new_string: 'ALPHA' },
        { old_string: 'delta', new_string: 'DELTA' },
      ],
    },
    ctx,
  );
  assert.equal(bad.isError, true);
  assert.match(textOf(bad), /Edit 2 of 2 failed, so no edit was applied/);
  assert.equal((await read('c.ts')).toString(), 'alpha\nbeta\ngamma\n');
  const good = await multiEditTool.execute(
    {
      file_path: 'c.ts',
      edits: [
        { old_string: 'alpha', new_string: 'ALPHA' },
        { old_string: 'ALPHA\nbeta', new_string: 'ALPHA\nBETA' },
      ],
    },
    ctx,
  );
  assert.equal(good.isError, false, textOf(good));
  assert.equal((await read('c.ts')).toString(), 'ALPHA\nBETA\ngamma\n');
});

test('describeForApproval gives a compact diff with counts, and proposeChange the texts', async () => {
  const { ctx } = await setup({ 'p.txt': 'a\nb\nc\n' });
  await readFileTool.execute({ file_path: 'p.txt' }, ctx);
  const d = await editFileTool.describeForApproval!({ file_path: 'p.txt', old_string: 'b', new_string: 'B\nB2' }, ctx);
  assert.match(
    d,
    new RegExp(
      String.raw`^Edit p\.txt \(\+2 −1\)\n--- a/p\.txt\n\+\+\+ b/p\.txt\n` +
        String.raw`@@ -1,3 \+1,4 @@\n a\n-b\n\+B\n\+B2\n c$`,
    ),
  );
  const change = await editFileTool.proposeChange!({ file_path: 'p.txt', old_string: 'b', new_string: 'B' }, ctx);
  assert.equal(change.before, 'a\nb\nc\n');
  assert.equal(change.after, 'a\nB\nc\n');
  const failing = await editFileTool.describeForApproval!(
    { file_path: 'p.txt', old_string: 'zzz', new_string: 'y' },
    ctx,
  );
  assert.match(failing, /^This call will fail/);
  const w = await writeFileTool.describeForApproval!({ file_path: 'new.txt', content: 'x\ny\n' }, ctx);
  assert.match(w, /^Create new\.txt \(\+2\)/);
});

test('writers may use sextant.sandbox.extraWriteRoots, and nothing else outside the workspace', async () => {
  const root = await makeTempWorkspace({});
  const extra = await makeTempWorkspace({});
  const elsewhere = await makeTempWorkspace({});
  const ctx = makeContext(createNodePorts({ root, extraWriteRoots: [extra] }));
  const ok = await writeFileTool.execute({ file_path: path.join(extra, 'out', 'a.txt'), content: 'a\n' }, ctx);
  assert.equal(ok.isError, false, textOf(ok));
  assert.equal(await fs.readFile(path.join(extra, 'out', 'a.txt'), 'utf8'), 'a\n');
  const refused = await writeFileTool.execute({ file_path: path.join(elsewhere, 'b.txt'), content: 'b' }, ctx);
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /outside the workspace folders.*extraWriteRoots/s);
});
