// /review's untracked files: `git diff HEAD` leaves out files git does not track yet, which are often the
// heart of a change. Each untracked, non-ignored file (`git ls-files --others --exclude-standard`)
// becomes a new-file diff, within caps (files and bytes, the rest named). Read rules apply: a file is
// read only when read_file would read it without asking (`mayRead`: deny rules, secret locations,
// outside the workspace); a symlink is named with its target, never followed; a binary file is named,
// not dumped. The file is opened with O_NOFOLLOW, and its folder must resolve inside the repository,
// so a link swapped in after the listing cannot lead the read elsewhere.
import { constants } from 'node:fs';
import * as fs from 'node:fs/promises';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { runGit } from '../checkpoints/git-repo';
import { deniedReads, isUnder, normalizePath } from '../permissions/paths';
import { looksBinary } from '../tools/util/text';

/** Whether this absolute path may be read without asking; a reason when not. */
export type MayRead = (absPath: string) => Promise<{ ok: true } | { ok: false; reason: string }>;

/** Untracked files shown at most (the rest are named, up to NAMES_MAX). */
export const UNTRACKED_FILES_MAX = 50;
/** Bytes of one file shown at most, and of all of them together. */
export const UNTRACKED_FILE_BYTES = 20_000;
export const UNTRACKED_TOTAL_BYTES = 100_000;
const NAMES_MAX = 200;

/** Without a policy: refused reads (keys, credentials, /proc) stay refused, and only files inside `root`. */
export function defaultMayRead(root: string): MayRead {
  const denied = deniedReads(homedir());
  return async (abs) => {
    const p = normalizePath(abs);
    const hit = denied.find((f) => f.test(p));
    if (hit) return { ok: false, reason: hit.reason };
    return isUnder(p, normalizePath(root)) ? { ok: true } : { ok: false, reason: 'outside the workspace' };
  };
}

/** The untracked files of the working tree in `cwd` as new-file diffs, with a note for what was left out. */
export async function untrackedDiff(cwd: string, mayRead?: MayRead): Promise<string> {
  const listed = await runGit(cwd, ['-c', 'core.fsmonitor=false', 'ls-files', '--others', '--exclude-standard', '-z']);
  const files = listed.toString('utf8').split('\0').filter(Boolean);
  if (!files.length) return '';
  const judge = mayRead ?? defaultMayRead(cwd);
  const realRoot = await fs.realpath(cwd);
  const parts: string[] = [];
  const named: string[] = [];
  let bytesLeft = UNTRACKED_TOTAL_BYTES;
  for (const [i, rel] of files.entries()) {
    if (i >= UNTRACKED_FILES_MAX) {
      if (named.length < NAMES_MAX) named.push(`${rel} (over ${UNTRACKED_FILES_MAX} untracked files)`);
      continue;
    }
    const shown = await newFileDiff(realRoot, cwd, rel, judge, bytesLeft);
    bytesLeft -= shown.bytes;
    parts.push(shown.text);
  }
  const more = files.length - UNTRACKED_FILES_MAX;
  if (more > 0)
    parts.push(
      `# ${more} more untracked file(s) not shown (read them directly if they matter):\n` +
        named.map((n) => `#   ${n}`).join('\n') +
        (more > named.length ? `\n#   … and ${more - named.length} more` : ''),
    );
  return parts.join('\n');
}

async function newFileDiff(
  realRoot: string,
  cwd: string,
  rel: string,
  judge: MayRead,
  bytesLeft: number,
): Promise<{ text: string; bytes: number }> {
  const header = `diff --git a/${rel} b/${rel}\nnew file (untracked)\n--- /dev/null\n+++ b/${rel}\n`;
  const note = (why: string) => ({ text: `diff --git a/${rel} b/${rel}\nnew file (untracked): ${why}\n`, bytes: 0 });
  const abs = path.join(cwd, rel);
  let st: Awaited<ReturnType<typeof fs.lstat>>;
  try {
    st = await fs.lstat(abs);
  } catch {
    return note('gone before it could be read');
  }
  if (st.isSymbolicLink()) {
    const target = await fs.readlink(abs).catch(() => '?');
    return note(`a symbolic link to ${target} (not followed)`);
  }
  if (!st.isFile()) return note('not a regular file');
  // Its folder must resolve inside the repository (a folder swapped for a link would lead elsewhere).
  const folder = await fs.realpath(path.dirname(abs)).catch(() => undefined);
  if (!folder || !isUnder(normalizePath(folder), normalizePath(realRoot)))
    return note('its folder leads outside the workspace (not read)');
  const allowed = await judge(path.join(folder, path.basename(abs)));
  if (!allowed.ok) return note(`not read: ${allowed.reason}`);
  if (bytesLeft <= 0) return note(`${st.size} bytes, not shown (untracked files over ${UNTRACKED_TOTAL_BYTES} bytes)`);
  const cap = Math.min(UNTRACKED_FILE_BYTES, bytesLeft);
  let bytes: Buffer;
  let size: number;
  const handle = await fs.open(abs, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch(() => undefined);
  if (!handle) return note('could not be opened (not read)');
  try {
    const fst = await handle.stat();
    if (!fst.isFile()) return note('not a regular file');
    size = fst.size;
    const buf = Buffer.alloc(Math.min(cap, size));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    bytes = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (looksBinary(bytes)) return note(`a binary file of ${size} bytes (not shown)`);
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const cut = size > bytes.length ? `\n# (${size - bytes.length} more bytes of ${rel} not shown)` : '';
  return {
    text: `${header}@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}`).join('\n')}${cut}\n`,
    bytes: bytes.length,
  };
}
