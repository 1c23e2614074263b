import { test } from 'node:test';
import assert from 'node:assert/strict';
import { promises as fs, utimesSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { todoWriteTool } from '../../../extension/core/tools/todo-write';
import { askUserTool } from '../../../extension/core/tools/ask-user';
import { notebookEditTool } from '../../../extension/core/tools/notebook-edit';
import { readFileTool } from '../../../extension/core/tools/read-file';
import { globTool } from '../../../extension/core/tools/glob';
import { lsTool } from '../../../extension/core/tools/ls';
import { createToolRegistry, builtinTools } from '../../../extension/core/tools/registry';
import { createNodePorts, makeContext, makeTempWorkspace, textOf } from '../../fixtures/node-ports';

function findRg(): string | undefined {
  try {
    return execFileSync('which', ['rg']).toString().trim() || undefined;
  } catch {
    return undefined;
  }
}

test('todo_write replaces the list, assigns ids and notifies the UI', async () => {
  const ctx = makeContext(createNodePorts({ root: await makeTempWorkspace() }));
  const r = await todoWriteTool.execute(
    {
      todos: [
        { content: 'Read code', status: 'completed' },
        { content: 'Fix bug', status: 'in_progress' },
        { id: 'x', content: 'Test', status: 'pending' },
      ],
    },
    ctx,
  );
  assert.match(textOf(r), /1\/3 completed/);
  assert.deepEqual(ctx.session.todos, [
    { id: 't1', content: 'Read code', status: 'completed' },
    { id: 't2', content: 'Fix bug', status: 'in_progress' },
    { id: 'x', content: 'Test', status: 'pending' },
  ]);
  assert.deepEqual(ctx.todoUpdates, [ctx.session.todos]);
  const registry = createToolRegistry(builtinTools());
  const two = await registry.execute(
    registry.prepare({
      id: '1',
      name: 'todo_write',
      argumentsJson: JSON.stringify({
        todos: [
          { content: 'a', status: 'in_progress' },
          { content: 'b', status: 'in_progress' },
        ],
      }),
    }),
    ctx,
  );
  assert.equal(two.isError, true);
  assert.match(textOf(two), /At most one todo may be in_progress/);
});

test('ask_user waits for the answers, includes Other, and abort cancels', async () => {
  const root = await makeTempWorkspace();
  const ports = createNodePorts({
    root,
    answer: async (qs) =>
      qs.map((q, k) => (k === 0 ? { selected: [q.options[1].label] } : { selected: [], other: 'something else' })),
  });
  const ctx = makeContext(ports);
  const r = await askUserTool.execute(
    {
      questions: [
        { question: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] },
        { question: 'Which tests?', options: [{ label: 'Unit' }, { label: 'E2E' }], multiSelect: true },
      ],
    },
    ctx,
  );
  assert.equal(r.isError, false);
  assert.equal(
    textOf(r),
    'The user answered:\nQ: Which database?\nA: Postgres\n\nQ: Which tests?\nA: Other: "something else"',
  );
  const waiting = createNodePorts({
    root,
    answer: (_qs, signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))),
  });
  const ctx2 = makeContext(waiting);
  const p = askUserTool.execute(
    { questions: [{ question: 'Go?', options: [{ label: 'Yes' }, { label: 'No' }] }] },
    ctx2,
  );
  ctx2.controller.abort();
  const c = await p;
  assert.equal(c.isError, true);
  assert.match(textOf(c), /cancelled/);
});

test('notebook_edit replaces, inserts and deletes cells, keeping the JSON layout', async () => {
  const nb = {
    cells: [
      {
        cell_type: 'code',
        execution_count: 1,
        id: 'a1',
        metadata: {},
        outputs: [{ output_type: 'stream', name: 'stdout', text: ['1\n'] }],
        source: ['x = 1\n', 'print(x)'],
      },
      { cell_type: 'markdown', id: 'b2', metadata: {}, source: ['# Notes'] },
    ],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  };
  const root = await makeTempWorkspace({ 'n.ipynb': `${JSON.stringify(nb, null, 1)}\n` });
  const ctx = makeContext(createNodePorts({ root }));
  const unread = await notebookEditTool.execute({ notebook_path: 'n.ipynb', cell_id: 'a1', new_source: 'y' }, ctx);
  assert.equal(unread.isError, true);
  await readFileTool.execute({ file_path: 'n.ipynb' }, ctx);
  const rep = await notebookEditTool.execute(
    { notebook_path: 'n.ipynb', cell_id: 'a1', new_source: 'x = 2\nprint(x)' },
    ctx,
  );
  assert.equal(rep.isError, false, textOf(rep));
  const ins = await notebookEditTool.execute(
    { notebook_path: 'n.ipynb', cell_id: 'a1', new_source: '## Middle', cell_type: 'markdown', edit_mode: 'insert' },
    ctx,
  );
  assert.equal(ins.isError, false, textOf(ins));
  const del = await notebookEditTool.execute({ notebook_path: 'n.ipynb', cell_id: 'b2', edit_mode: 'delete' }, ctx);
  assert.equal(del.isError, false, textOf(del));
  const text = await fs.readFile(path.join(root, 'n.ipynb'), 'utf8');
  assert.ok(text.endsWith('}\n'));
  assert.match(text, /^\{\n "cells": \[/);
  const out = JSON.parse(text);
  assert.equal(out.cells.length, 2);
  assert.deepEqual(out.cells[0].source, ['x = 2\n', 'print(x)']);
  assert.deepEqual(out.cells[0].outputs, []);
  assert.equal(out.cells[0].execution_count, null);
  assert.equal(out.cells[1].cell_type, 'markdown');
  assert.match(out.cells[1].id, /^[0-9a-f]{8}$/);
  const missing = await notebookEditTool.execute({ notebook_path: 'n.ipynb', cell_id: 'zz', new_source: 'q' }, ctx);
  assert.match(textOf(missing), /No cell with id "zz".*0:a1/);
});

test('notebook_edit goes through the notebook editor when the notebook is open there', async () => {
  const nb = {
    cells: [{ cell_type: 'code', execution_count: null, id: 'a1', metadata: {}, outputs: [], source: ['x = 1'] }],
    metadata: {},
    nbformat: 4,
    nbformat_minor: 5,
  };
  const root = await makeTempWorkspace({
    'open.ipynb': `${JSON.stringify(nb, null, 1)}\n`,
    'closed.ipynb': `${JSON.stringify(nb, null, 1)}\n`,
  });
  const ports = createNodePorts({ root });
  const calls: Array<{ path: string; edit: unknown }> = [];
  // The editor saves in its own serialisation (here: compact JSON), as VS Code's ipynb serializer may.
  ports.workspace.applyNotebookEdit = async (abs, edit) => {
    if (!abs.endsWith('open.ipynb')) return 'not-open';
    calls.push({ path: path.basename(abs), edit });
    const doc = JSON.parse(await fs.readFile(abs, 'utf8'));
    if (edit.mode === 'insert')
      doc.cells.splice(edit.index, 0, { cell_type: edit.cellType, metadata: {}, source: [edit.source] });
    await fs.writeFile(abs, JSON.stringify(doc));
    return 'applied';
  };
  const ctx = makeContext(ports);
  for (const f of ['open.ipynb', 'closed.ipynb']) await readFileTool.execute({ file_path: f }, ctx);
  const viaEditor = await notebookEditTool.execute(
    { notebook_path: 'open.ipynb', cell_id: 'a1', new_source: '# Title', cell_type: 'markdown', edit_mode: 'insert' },
    ctx,
  );
  assert.equal(viaEditor.isError, false, textOf(viaEditor));
  assert.match(textOf(viaEditor), /open notebook editor/);
  assert.deepEqual(calls, [
    { path: 'open.ipynb', edit: { mode: 'insert', index: 1, source: '# Title', cellType: 'markdown' } },
  ]);
  // The editor's save counts as read: the next edit of the same notebook is not refused as stale.
  const again = await notebookEditTool.execute(
    { notebook_path: 'open.ipynb', cell_index: 0, edit_mode: 'delete' },
    ctx,
  );
  assert.equal(again.isError, false, textOf(again));
  // A notebook that is not open is edited on disk, as before.
  const onDisk = await notebookEditTool.execute(
    { notebook_path: 'closed.ipynb', cell_id: 'a1', new_source: 'x = 2' },
    ctx,
  );
  assert.equal(onDisk.isError, false, textOf(onDisk));
  assert.deepEqual(JSON.parse(await fs.readFile(path.join(root, 'closed.ipynb'), 'utf8')).cells[0].source, ['x = 2']);
});

for (const backend of ['rg', 'js'] as const) {
  test(`glob (${backend}): standard glob semantics, newest first, gitignore honoured`, async () => {
    const rg = findRg();
    if (backend === 'rg' && !rg) return;
    const root = await makeTempWorkspace({
      '.gitignore': 'dist/\n',
      'a.ts': '',
      'src/b.ts': '',
      'src/c.tsx': '',
      'src/deep/d.ts': '',
      'dist/e.ts': '',
      '.github/ci.yml': '',
    });
    const old = new Date('2020-01-01');
    for (const [f, k] of [
      ['a.ts', 1],
      ['src/b.ts', 3],
      ['src/deep/d.ts', 2],
    ] as const) {
      utimesSync(path.join(root, f), old, new Date(old.getTime() + k * 1000));
    }
    const ctx = makeContext(createNodePorts({ root, ripgrep: backend === 'rg' ? rg : undefined }));
    const all = textOf(await globTool.execute({ pattern: '**/*.ts' }, ctx));
    assert.equal(all, 'src/b.ts\nsrc/deep/d.ts\na.ts');
    const top = textOf(await globTool.execute({ pattern: '*.ts' }, ctx));
    assert.equal(top, 'a.ts');
    const braces = textOf(await globTool.execute({ pattern: '*.{ts,tsx}', path: 'src' }, ctx));
    assert.deepEqual(braces.split('\n').sort(), ['src/b.ts', 'src/c.tsx']);
    assert.equal(textOf(await globTool.execute({ pattern: '**/*.yml' }, ctx)), '.github/ci.yml');
    const ignored = textOf(await globTool.execute({ pattern: 'dist/*.ts', include_ignored: true }, ctx));
    assert.equal(ignored, 'dist/e.ts');
    const none = textOf(await globTool.execute({ pattern: '*.py' }, ctx));
    assert.match(none, /No files match \*\.py.*try "\*\*\/\*\.py"/);
  });
}

test('ls lists folders first with sizes, does not expand noise or ignored folders, and makes a tree', async () => {
  const root = await makeTempWorkspace({
    '.gitignore': 'out/\n',
    'README.md': 'hello',
    'src/index.ts': 'x'.repeat(2048),
    'node_modules/x/index.js': '',
    'out/bundle.js': '',
    '.DS_Store': '',
  });
  const ctx = makeContext(createNodePorts({ root }));
  const r = textOf(await lsTool.execute({ depth: 2 }, ctx));
  assert.equal(
    r,
    './\nnode_modules/ (not expanded)\nout/ (gitignored, not expanded)\nsrc/\n  index.ts  (2.0 KB)\n.gitignore  (5 ' +
      'B)\nREADME.md  (5 B)',
  );
  const file = await lsTool.execute({ path: 'README.md' }, ctx);
  assert.equal(file.isError, true);
});

test('ripgrep candidates: ripgrep-universal per platform first, then @vscode/ripgrep, asar variants', async () => {
  const { ripgrepCandidates } = await import('../../../extension/core/tools/util/ripgrep');
  const c = ripgrepCandidates('/app', 'linux', 'x64');
  assert.deepEqual(c.slice(0, 4), [
    '/app/node_modules/@vscode/ripgrep-universal/bin/linux-x64/rg',
    '/app/node_modules.asar.unpacked/@vscode/ripgrep-universal/bin/linux-x64/rg',
    '/app/node_modules/@vscode/ripgrep/bin/rg',
    '/app/node_modules/vscode-ripgrep/bin/rg',
  ]);
  assert.ok(c.includes('/app/node_modules.asar.unpacked/@vscode/ripgrep/bin/rg'));
  assert.equal(
    ripgrepCandidates('C:/vs', 'win32', 'arm64')[0],
    'C:/vs/node_modules/@vscode/ripgrep-universal/bin/win32-arm64/rg.exe',
  );
});
