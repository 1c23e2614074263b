// The runtime bundle loaded with V8's code cache (extension/platform/code-cache.ts), each load in a fresh
// process as each window's extension host is: the first load makes the cache, the next ones use it; a
// bundle changed to another text of the same length (all V8 itself checks) never runs the old code; a
// damaged cache is refused by V8, the bundle still runs, and the cache is made again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleChild } from '../store/child';

const bundleText = (word: string) =>
  [
    "const path = require('node:path');",
    // Enough functions that the cache is more than a header, and ones that run only when called.
    ...Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x + ${i}; }`),
    `exports.answer = () => '${word}' + f49(0) + (path.dirname(__filename) === __dirname);`,
  ].join('\n');

test('a fresh process uses the cache; a same-length change or a damaged cache runs no stale code', async () => {
  const child = await bundleChild('test/fixtures/code-cache/load-child.ts', 'code-cache-child');
  const dir = mkdtempSync(join(tmpdir(), 'sextant-code-cache-'));
  try {
    const file = join(dir, 'runtime.js');
    const cacheDir = join(dir, 'storage', 'code-cache');
    const load = (keep = false) =>
      JSON.parse(
        execFileSync(process.execPath, [child, file, cacheDir, ...(keep ? ['keep'] : [])], { encoding: 'utf8' }),
      );
    writeFileSync(file, bundleText('one'));
    assert.deepEqual(load(true), { cache: 'none', answer: 'one49true' });
    assert.equal(readdirSync(cacheDir).length, 1, 'the cache was written');
    assert.deepEqual(load(), { cache: 'used', answer: 'one49true' }, 'the next window uses it');

    // An update of the same length: V8 would take the old cache; its name (the text's hash) keeps it out.
    writeFileSync(file, bundleText('two'));
    assert.deepEqual(load(true), { cache: 'none', answer: 'two49true' });
    assert.equal(readdirSync(cacheDir).length, 1, "the old version's cache is removed");

    // A damaged cache file under the right name: refused, the bundle still runs, and it is made again.
    const [name] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, name), Buffer.from('not a code cache at all'));
    assert.deepEqual(load(true), { cache: 'refused', answer: 'two49true' });
    assert.deepEqual(load(), { cache: 'used', answer: 'two49true' });

    // A folder that cannot be written: the bundle runs, nothing is thrown.
    rmSync(cacheDir, { recursive: true });
    writeFileSync(join(dir, 'storage', 'code-cache'), 'a file where the folder should be');
    assert.deepEqual(load(true), { cache: 'none', answer: 'two49true' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
