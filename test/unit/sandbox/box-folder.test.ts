// A box's proxy socket must fit in sun_path (108 bytes): a state folder too deep for it gets a short
// box folder under /tmp instead (a socket path cut short left every proxied connection reset).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeBoxFolder, PROXY_SOCKET } from '../../../extension/platform/sandbox/box-folder';

test('a short state folder keeps its box folder; a deep one gets a short private folder under /tmp', () => {
  const base = mkdtempSync(join(tmpdir(), 'bf-'));
  try {
    const near = makeBoxFolder(base, 'h-1-1');
    assert.equal(near, join(base, 'h-1-1'));
    const deep = join(base, 'x'.repeat(60), 'y'.repeat(40));
    const far = makeBoxFolder(deep, 'h-1-2');
    assert.match(far, /^\/tmp\/sextant-box-/);
    assert.ok(Buffer.byteLength(join(far, PROXY_SOCKET)) <= 100);
    assert.equal(statSync(far).mode & 0o777, 0o700, 'private to the user');
    assert.equal(existsSync(join(deep, 'h-1-2')), false);
    rmSync(far, { recursive: true, force: true });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
