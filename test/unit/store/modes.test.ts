// The store's files hold whole conversations: owner-only (0600 files, 0700 folders) when created,
// and narrowed when the store opens a folder an older version left readable by others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, lockPath } from '../../../extension/core/store/lock';
import { created, exchange, open, tempDir } from './helpers';

const skip = process.platform === 'win32' ? 'no POSIX modes on Windows' : false;

const mode = (p: string) => statSync(p).mode & 0o777;

/** Every file and folder under `dir` whose mode is not owner-only, as "path 0644". */
function notPrivate(dir: string): string[] {
  const bad: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = statSync(p);
      const want = st.isDirectory() ? 0o700 : 0o600;
      if ((st.mode & 0o777) !== want) bad.push(`${p.slice(dir.length)} ${(st.mode & 0o777).toString(8)}`);
      if (st.isDirectory()) walk(p);
    }
  };
  if (mode(dir) !== 0o700) bad.push(`(store folder) ${mode(dir).toString(8)}`);
  walk(dir);
  return bad;
}

test('a new store creates its folder, database, .prev, sidecars, journals and blobs owner-only', { skip }, async () => {
  const { dir: parent, cleanup } = tempDir('modes');
  const old = process.umask(0o022);
  try {
    const dir = join(parent, 'globalStorage', 'sextant');
    const store = await open(dir);
    store.append(created('s1', 100, 'First'));
    for (const r of exchange('s1', 'r1', 200, 'Print a long log', `log:\n${'x'.repeat(40 * 1024)}`)) store.append(r);
    await store.flush();
    store.append(created('s2', 300, 'Second'));
    await store.flush();
    const names = readdirSync(dir);
    for (const f of ['sextant.db', 'sextant.db.meta.json', 'sextant.db.prev', 'sextant.db.prev.meta.json'])
      assert.ok(names.includes(f), `${f} missing: ${names.join(', ')}`);
    assert.ok(readdirSync(join(dir, 'journal')).length > 0);
    assert.ok(readdirSync(join(dir, 'blobs')).length > 0, 'the long answer did not go to a blob');
    // The lock, while held.
    const release = await acquireLock(dir, 'test-owner');
    assert.equal(mode(lockPath(dir)), 0o600);
    assert.deepEqual(notPrivate(dir), []);
    release();
    await store.close();
    assert.deepEqual(notPrivate(dir), []);
  } finally {
    process.umask(old);
    cleanup();
  }
});

test('opening narrows the files an older version left readable by others', { skip }, async () => {
  const { dir, cleanup } = tempDir('modes-old');
  const old = process.umask(0o022);
  try {
    // A store as an older Sextant wrote it: 0644 files in 0755 folders.
    let store = await open(dir);
    store.append(created('s1', 100, 'First'));
    for (const r of exchange('s1', 'r1', 200, 'Long', `log:\n${'y'.repeat(40 * 1024)}`)) store.append(r);
    await store.flush();
    await store.close();
    mkdirSync(join(dir, 'journal'), { recursive: true });
    writeFileSync(join(dir, 'journal', '1-oldwriter.000001.jsonl'), '');
    writeFileSync(join(dir, 'sextant.db.corrupt-1'), 'old');
    writeFileSync(join(dir, 'other-extension-file.txt'), 'not ours');
    const widen = (d: string) => {
      chmodSync(d, 0o755);
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) widen(p);
        else chmodSync(p, 0o644);
      }
    };
    widen(dir);
    assert.ok(notPrivate(dir).length > 5);

    store = await open(dir);
    assert.equal(store.getSession('s1')?.title, 'First');
    const left = notPrivate(dir);
    // Only a file that is not the store's own keeps its mode.
    assert.deepEqual(left, ['/other-extension-file.txt 644']);
    await store.close();
  } finally {
    process.umask(old);
    cleanup();
  }
});

test('an owner-only sessions/ folder is trusted at open; a wide one has its files narrowed, then itself', {
  skip,
}, async () => {
  const { dir, cleanup } = tempDir('modes-cold');
  const old = process.umask(0o022);
  try {
    let store = await open(dir);
    store.append(created('s1', 100, 'First'));
    for (const r of exchange('s1', 'r1', 200, 'Q', 'An answer')) store.append(r);
    await store.flush();
    await store.close();
    const folder = join(dir, 'sessions');
    const [file] = readdirSync(folder).map((f) => join(folder, f));
    assert.ok(file, 'a cold file');
    // Inside a folder only the owner can enter, a file's own mode keeps no one out: not stat'ed again
    // (a history of thousands of cold files would cost thousands of lstat calls at every open).
    chmodSync(file, 0o644);
    store = await open(dir);
    await store.close();
    assert.equal(mode(folder), 0o700);
    assert.equal(mode(file), 0o644);
    // A folder left wide (an older version, or a crash while narrowing): its files, then the folder.
    chmodSync(folder, 0o755);
    store = await open(dir);
    assert.equal(store.getSession('s1')?.title, 'First');
    await store.close();
    assert.equal(mode(file), 0o600);
    assert.equal(mode(folder), 0o700);
  } finally {
    process.umask(old);
    cleanup();
  }
});
