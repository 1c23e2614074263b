import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { localFiles } from '../../../extension/core/local-files';
import { readFileTool } from '../../../extension/core/tools/read-file';
import { createNodePorts, makeContext, makeTempWorkspace, repoFile, textOf } from '../../fixtures/node-ports';

// A 2×3 PNG: signature + IHDR is all the header parser needs, the rest makes it a real file.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000002000000030806000000b9eade81' +
    '0000001549444154789c63f8cfc0f01f0818181800001f0701fdc6a5e1a80000000049454e44ae426082',
  'hex',
);

async function setup(files: Record<string, string | Uint8Array>) {
  const root = await makeTempWorkspace(files);
  const ports = createNodePorts({ root });
  return { root, ports, ctx: makeContext(ports) };
}

test('read_file numbers lines, pages with offset/limit and records the read', async () => {
  const lines = `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
  const { root, ctx } = await setup({ 'a.txt': lines });
  const r = await readFileTool.execute({ file_path: 'a.txt', offset: 10, limit: 3 }, ctx);
  assert.equal(r.isError, false);
  const t = textOf(r);
  assert.match(t, /^ {4}10\tline 10\n {4}11\tline 11\n {4}12\tline 12/);
  assert.match(t, /Showing lines 10–12 of 30\. Continue with offset=13/);
  assert.ok(ctx.session.readFiles.has(path.join(root, 'a.txt')));
});

test('read_file cuts very long lines and reports an empty file', async () => {
  const { ctx } = await setup({ 'long.txt': 'x'.repeat(5000), 'empty.txt': '' });
  const r = await readFileTool.execute({ file_path: 'long.txt' }, ctx);
  assert.match(textOf(r), /line cut: 3000 more characters/);
  const e = await readFileTool.execute({ file_path: 'empty.txt' }, ctx);
  assert.equal(e.isError, false);
  assert.match(textOf(e), /is empty/);
});

test('read_file refuses binary files with a clear note and suggests names for missing files', async () => {
  const { ctx } = await setup({ 'blob.bin': Buffer.from([1, 2, 0, 3, 4, 0, 5]), 'config.json': '{}' });
  const r = await readFileTool.execute({ file_path: 'blob.bin' }, ctx);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /binary file/);
  const m = await readFileTool.execute({ file_path: 'confg.json' }, ctx);
  assert.equal(m.isError, true);
  assert.match(textOf(m), /Did you mean: config\.json/);
});

test('read_file prefers the unsaved editor text of a dirty document', async () => {
  const { root, ports, ctx } = await setup({ 'd.ts': 'on disk\n' });
  ports.workspace.dirty.set(path.join(root, 'd.ts'), 'in the editor\n');
  const r = await readFileTool.execute({ file_path: 'd.ts' }, ctx);
  assert.match(textOf(r), /Unsaved editor text/);
  assert.match(textOf(r), /in the editor/);
  assert.doesNotMatch(textOf(r), /on disk/);
});

test('read_file returns images as image content when the model accepts them, a description otherwise', async () => {
  const { ports } = await setup({ 'pic.png': PNG });
  const seeing = makeContext(ports, { supportsImages: true });
  const r = await readFileTool.execute({ file_path: 'pic.png' }, seeing);
  assert.ok(Array.isArray(r.forModel));
  const img = (r.forModel as Array<{ type: string; mediaType?: string; dataBase64?: string }>).find(
    (b) => b.type === 'image',
  );
  assert.equal(img?.mediaType, 'image/png');
  assert.equal(Buffer.from(img?.dataBase64 ?? '', 'base64').length, PNG.length);
  assert.match(textOf(r), /2×3/);
  const blind = makeContext(ports, { supportsImages: false });
  const b = await readFileTool.execute({ file_path: 'pic.png' }, blind);
  assert.equal(typeof b.forModel, 'string');
  assert.match(textOf(b), /cannot view images/);
});

test('read_file extracts PDF text per page and honours pages', async () => {
  const pdf = readFileSync(repoFile('test/fixtures/files/sample.pdf'));
  const { ctx } = await setup({ 'doc.pdf': pdf });
  const r = await readFileTool.execute({ file_path: 'doc.pdf' }, ctx);
  assert.equal(r.isError, false, textOf(r));
  const t = textOf(r);
  assert.match(
    t,
    new RegExp(
      String.raw`--- Page 1 of 2 ---\nSextant PDF fixture\n` +
        String.raw`The quick brown fox jumps over the lazy dog\. Ünïcödé`,
    ),
  );
  assert.match(t, /--- Page 2 of 2 ---\nSecond page\nTotals: 42 apples, 7 pears\./);
  const p2 = await readFileTool.execute({ file_path: 'doc.pdf', pages: '2' }, ctx);
  assert.doesNotMatch(textOf(p2), /quick brown fox/);
  const bad = await readFileTool.execute({ file_path: 'doc.pdf', pages: '9' }, ctx);
  assert.equal(bad.isError, true);
});

test('read_file renders notebooks as cells with outputs', async () => {
  const nb = {
    cells: [
      { cell_type: 'markdown', id: 'm1', metadata: {}, source: ['# Title\n', 'Intro'] },
      {
        cell_type: 'code',
        id: 'c1',
        metadata: {},
        execution_count: 3,
        source: ['print(6*7)'],
        outputs: [{ output_type: 'stream', name: 'stdout', text: ['42\n'] }],
      },
      {
        cell_type: 'code',
        id: 'c2',
        metadata: {},
        execution_count: 4,
        source: '1/0',
        outputs: [
          {
            output_type: 'error',
            ename: 'ZeroDivisionError',
            evalue: 'division by zero',
            traceback: ['\u001b[31mTraceback\u001b[0m'],
          },
        ],
      },
    ],
    metadata: { language_info: { name: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  const { ctx } = await setup({ 'n.ipynb': JSON.stringify(nb, null, 1) });
  const r = await readFileTool.execute({ file_path: 'n.ipynb' }, ctx);
  const t = textOf(r);
  assert.match(t, /3 cells/);
  assert.match(t, /<cell index=1 id="c1" type=code execution_count=3>\n```python\nprint\(6\*7\)\n```\nOutputs:\n42/);
  assert.match(t, /ZeroDivisionError: division by zero\nTraceback/);
  assert.doesNotMatch(t, /\u001b/);
});

test('read_file refuses devices and pipes instead of reading them whole (/dev/zero took the host down)', async () => {
  const { root, ctx } = await setup({ 'a.txt': 'x' });
  const zero = await readFileTool.execute({ file_path: '/dev/zero' }, ctx);
  assert.equal(zero.isError, true);
  assert.match(textOf(zero), /not a regular file/);
  const fifo = path.join(root, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const p = await readFileTool.execute({ file_path: 'pipe' }, ctx);
  assert.equal(p.isError, true);
  assert.match(textOf(p), /not a regular file/);
});

test('read_file checks the size before reading: a 100 MB file is refused with a way on', async () => {
  const { root, ctx } = await setup({});
  const big = path.join(root, 'big.log');
  // Sparse: 100 MB by stat, nothing on disk.
  truncateSync(writeEmpty(big), 100 * 1024 * 1024);
  const r = await readFileTool.execute({ file_path: 'big.log' }, ctx);
  assert.equal(r.isError, true);
  assert.match(textOf(r), /100(\.0)? MB, over the 64(\.0)? MB read limit.*grep/s);
});

test('the bounded read stops at its limit and on abort', async () => {
  const { root } = await setup({ 'f.bin': Buffer.alloc(3 * 1024 * 1024, 1) });
  const file = path.join(root, 'f.bin');
  await assert.rejects(localFiles.readFile(file, { maxBytes: 1024 * 1024 }), (e: NodeJS.ErrnoException) => {
    return e.code === 'EFBIG';
  });
  const ok = await localFiles.readFile(file, { maxBytes: 4 * 1024 * 1024 });
  assert.equal(ok.length, 3 * 1024 * 1024);
  const aborted = new AbortController();
  aborted.abort();
  await assert.rejects(localFiles.readFile(file, { maxBytes: 10, signal: aborted.signal }));
});

function writeEmpty(file: string): string {
  writeFileSync(file, '');
  return file;
}
