// What the user is told when history cannot be written (a full disk, a quota, a read-only folder):
// what is not saved, where the storage is, and how to free space.

/** One line for the chat and the notification. */
export function storageFullNotice(err: Error, dir: string): string {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk holding it is full'
      : `it cannot be written (${code ?? err.message})`;
  return (
    `Chat history is not being saved: ${why} — ${dir}. Nothing is lost: this chat is kept in memory and ` +
    'saved as soon as writing works again. Free space on that disk; "Sextant: Show Storage" shows what ' +
    'Sextant keeps there and can purge deleted chats.'
  );
}
