import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  awaitSettled,
  formatDiagnostics,
  MAX_LISTED,
  newDiagnostics,
} from '../../../extension/core/language/diagnostics';
import type { FileDiagnostic } from '../../../extension/core/language/types';
import { execute } from '../../../extension/core/agent/tool-phases';
import { builtinTools, createToolRegistry } from '../../../extension/core/tools/registry';
import { readFileTool } from '../../../extension/core/tools/read-file';
import type { ProposedChange } from '../../../extension/core/tools/types';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';
import { FakeLanguage, toyServer } from '../../fixtures/fake-language';

const d = (over: Partial<FileDiagnostic>): FileDiagnostic => ({
  path: '/w/a.ts',
  line: 0,
  character: 0,
  severity: 'error',
  message: 'm',
  ...over,
});

test('newDiagnostics: a moved problem is not new, a repeated one counts, info and hints are left out', () => {
  const before = [d({ line: 3, message: 'old' }), d({ message: 'twice' })];
  const after = [
    d({ line: 9, message: 'old' }),
    d({ line: 1, message: 'twice' }),
    d({ line: 2, message: 'twice' }),
    d({ severity: 'info', message: 'fyi' }),
    d({ severity: 'hint', message: 'hint' }),
    d({ severity: 'warning', line: 0, message: 'warn' }),
    d({ path: '/w/b.ts', message: 'old' }),
  ];
  const fresh = newDiagnostics(before, after);
  assert.deepEqual(
    fresh.map((x) => [x.path, x.line, x.severity, x.message]),
    [
      ['/w/a.ts', 2, 'error', 'twice'],
      ['/w/b.ts', 0, 'error', 'old'],
      ['/w/a.ts', 0, 'warning', 'warn'],
    ],
  );
});

test('formatDiagnostics: 1-based path:line:col, severity, source and code, long messages cut, capped', () => {
  const one = formatDiagnostics(
    [d({ line: 4, character: 2, source: 'ts', code: '2322', message: `Type\n  'x' is bad ${'z'.repeat(400)}` })],
    (p) => path.basename(p),
  );
  assert.match(one, /^a\.ts:5:3 error \[ts 2322\] Type 'x' is bad z+…$/);
  assert.ok(one.length < 360);
  const many = Array.from({ length: MAX_LISTED + 7 }, (_, i) => d({ line: i }));
  const text = formatDiagnostics(many, (p) => p);
  assert.equal(text.split('\n').length, MAX_LISTED + 1);
  assert.match(text, /… and 7 more\.$/);
});

test('awaitSettled: settles after quiet, times out at the cap, ignores other files, stops on abort', async () => {
  const lang = new FakeLanguage();
  const never = new AbortController().signal;
  const settled = awaitSettled(lang, ['/w/a.ts'], { quietMs: 10, maxMs: 60_000 }, never);
  lang.publish('/w/other.ts', []);
  lang.publish('/w/a.ts', []);
  assert.equal(await settled, 'settled');

  const other = awaitSettled(lang, ['/w/a.ts'], { quietMs: 10, maxMs: 30 }, never);
  lang.publish('/w/other.ts', []);
  assert.equal(await other, 'timeout');

  const stop = new AbortController();
  const aborted = awaitSettled(lang, ['/w/a.ts'], { quietMs: 10, maxMs: 60_000 }, stop.signal);
  stop.abort();
  assert.equal(await aborted, 'aborted');
  assert.equal(await awaitSettled(lang, ['/w/a.ts'], { quietMs: 1, maxMs: 1 }, stop.signal), 'aborted');
});

async function setup(files: Record<string, string>, lang: FakeLanguage) {
  const root = await makeTempWorkspace(files);
  const ports = createNodePorts({ root });
  ports.language = lang;
  // The "language server" sees every write, as VS Code's would.
  const apply = ports.workspace.applyTextEdit.bind(ports.workspace);
  ports.workspace.applyTextEdit = async (abs, text, bytes) => {
    const via = await apply(abs, text, bytes);
    void lang.fileChanged(abs);
    return via;
  };
  const ctx = makeContext(ports);
  const registry = createToolRegistry(builtinTools());
  for (const f of Object.keys(files)) await readFileTool.execute({ file_path: f }, ctx);
  const run = (name: string, args: unknown, reviewed?: ProposedChange, editedText?: string) => {
    const prepared = registry.prepare({ id: 'c1', name, argumentsJson: JSON.stringify(args) });
    assert.ok(prepared.ok);
    return execute(prepared, reviewed, editedText, registry, ctx);
  };
  return { root, ctx, run };
}

test('an edit that adds an error gets it back in its result; the file’s old problems are not repeated', async () => {
  const lang = new FakeLanguage({ server: toyServer });
  const { run } = await setup({ 'src/a.ts': 'const a = 1; // ERROR old\nconst b = 2;\n' }, lang);
  const r = await run('edit_file', {
    file_path: 'src/a.ts',
    old_string: 'const a = 1;',
    new_string: 'const z = 0;\nconst a = 1; // WARN\n@@',
  });
  assert.equal(r.isError, false);
  const text = textOf(r);
  assert.match(text, /New problems after this edit \(1 error, 1 warning\):/);
  assert.match(text, /src\/a\.ts:3:1 error \[syntax\] '@@' unexpected/);
  assert.match(text, /src\/a\.ts:2:\d+ warning \[toy\] WARN is suspicious/);
  assert.doesNotMatch(text, /ERROR is not allowed/);
  assert.match(r.forUi, /New problems after this edit/);
});

test('a clean edit says so; write_file and multi_edit are watched too', async () => {
  const lang = new FakeLanguage({ server: toyServer });
  const { run } = await setup({ 'a.ts': 'x\n' }, lang);
  // Clean before and after: the server publishes nothing; the short silence ends the wait, not the cap.
  lang.limits = { quietMs: 20, maxMs: 60_000 };
  const clean = await run('edit_file', { file_path: 'a.ts', old_string: 'x', new_string: 'y' });
  assert.match(textOf(clean), /No new errors or warnings in the edited file\.$/);
  const multi = await run('multi_edit', { file_path: 'a.ts', edits: [{ old_string: 'y', new_string: 'ERROR' }] });
  assert.match(textOf(multi), /a\.ts:1:1 error \[toy T1\] ERROR is not allowed/);
  const written = await run('write_file', { file_path: 'b.ts', content: 'WARN\n' });
  assert.match(textOf(written), /New problems after this edit \(1 warning\)/);
});

test('an approved change the user edited in the diff review is checked like any other write', async () => {
  const lang = new FakeLanguage({ server: toyServer });
  const { root, run } = await setup({ 'a.ts': 'one\n' }, lang);
  const abs = path.join(root, 'a.ts');
  const reviewed: ProposedChange = { path: abs, displayPath: 'a.ts', isNew: false, before: 'one\n', after: 'two\n' };
  const r = await run('edit_file', { file_path: 'a.ts', old_string: 'one', new_string: 'two' }, reviewed, 'ERROR\n');
  assert.match(textOf(r), /with the user's edits/);
  assert.match(textOf(r), /a\.ts:1:1 error \[toy T1\] ERROR is not allowed/);
});

test('no diagnostics source: no waiting; a silent server ends at the cap with a note; Stop ends the wait', async () => {
  const plain = new FakeLanguage({
    server: toyServer,
    support: () => ({ languageId: 'plaintext', diagnostics: false }),
  });
  const a = await setup({ 'notes.txt': 'x\n' }, plain);
  const r = await a.run('edit_file', { file_path: 'notes.txt', old_string: 'x', new_string: 'ERROR' });
  assert.equal(textOf(r).includes('problems'), false);
  assert.equal(plain.subscriptions, 0, 'never listened for diagnostics');

  // A file the write creates has nothing to compare with: a server that never answers costs the whole cap.
  const silent = new FakeLanguage({ limits: { quietMs: 5, maxMs: 40 } });
  const b = await setup({ 'a.ts': 'x\n' }, silent);
  const late = await b.run('write_file', { file_path: 'new.ts', content: 'y\n' });
  assert.match(textOf(late), /had not answered within 40 ms/);

  const off = new FakeLanguage({ server: toyServer, limits: { quietMs: 5, maxMs: 0 } });
  const c = await setup({ 'a.ts': 'x\n' }, off);
  const none = await c.run('edit_file', { file_path: 'a.ts', old_string: 'x', new_string: 'ERROR' });
  assert.equal(textOf(none).includes('problems'), false, 'waitMs 0 turns it off');
  assert.equal(off.subscriptions, 0);

  const slow = new FakeLanguage({ limits: { quietMs: 5, maxMs: 60_000 } });
  const e = await setup({ 'a.ts': 'x\n' }, slow);
  slow.opened.add(path.join(e.root, 'a.ts'));
  const pending = e.run('edit_file', { file_path: 'a.ts', old_string: 'x', new_string: 'y' });
  while (slow.subscriptions < 1) await new Promise((r) => setTimeout(r, 1));
  e.ctx.controller.abort();
  const stopped = await pending;
  assert.equal(stopped.isError, false, 'the write happened');
  assert.doesNotMatch(textOf(stopped), /problems|had not answered/);
});
