import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, purgeDeletedAfterDays, storageLines } from '../../../extension/core/store';

test('sextant.history.purgeDeletedAfterDays: whole days, 0 keeps, nonsense falls back to 30', () => {
  assert.equal(purgeDeletedAfterDays(7), 7);
  assert.equal(purgeDeletedAfterDays(0), 0);
  assert.equal(purgeDeletedAfterDays(2.9), 2);
  assert.equal(purgeDeletedAfterDays(-1), 30);
  assert.equal(purgeDeletedAfterDays('5'), 30);
  assert.equal(purgeDeletedAfterDays(undefined), 30);
  assert.equal(purgeDeletedAfterDays(1e9), 3650);
});

test('Show Storage lines: the total and each part, deleted chats with the retention rule', () => {
  const lines = storageLines(
    {
      snapshotBytes: 4 * 1024 * 1024,
      prevSnapshotBytes: 4 * 1024 * 1024,
      journalBytes: 1000,
      coldFiles: 3,
      coldBytes: 30 * 1024 * 1024,
      imageBytes: 0,
      blobBytes: 2048,
      checkpointBytes: 0,
      sessions: 10,
      coldSessions: 3,
      deletedSessions: 2,
      deletedBytes: 5000,
      pendingDeleteBytes: 0,
    },
    0,
  );
  assert.equal(lines[0].label, `Total ${formatBytes(8 * 1024 * 1024 + 1000 + 30 * 1024 * 1024 + 2048)}`);
  assert.match(lines[0].detail, /10 chats, 3 of them in cold files/);
  assert.ok(lines.some((l) => l.label === 'Older chats 30.0 MB'));
  assert.match(lines.find((l) => l.label.startsWith('Deleted chats 2'))?.detail ?? '', /kept until purged/);
  assert.ok(!lines.some((l) => l.label.startsWith('Being freed')));
  assert.equal(formatBytes(1536), '1.5 KB');
});
