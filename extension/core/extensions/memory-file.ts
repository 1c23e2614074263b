// Memories the user kept: Markdown files that are rules files like any other (read through the safe
// reader, in the prompt of every request, editable by hand). Two of them, at paths fixed here and never
// by the model: the workspace's `.sextant/memory.md` (first folder) and the user's `~/.sextant/memory.md`
// (the command line reads the same file, since it reads `~/.sextant` too).
//
// Writing one is the user's act (Keep on a memory card, or `# text` in the composer), so it does not go
// through the write tools' approval. It still keeps three promises:
// - a memory never holds a secret: a key shape, a password assignment or a stored key's exact value is
//   refused with a message saying so (memories are plain text that every later request sends);
// - it is written only where the safe reader would read it back: a repository whose `.sextant/memory.md`
//   (or `.sextant` folder) is a link out of the workspace cannot turn a kept memory into a write into
//   `~/.bashrc`; a user's own file may link inside their home, as their rules files may;
// - it is appended, one bullet per memory, to what is there (the user's own edits stay).
import * as path from 'node:path';
import { MEMORY_MAX_CHARS, type MemoryScope } from '../../protocol';
import type { WorkspacePort } from '../ports';
import { createRedactor } from '../security/redact';
import { isInside } from './project-files';
import { readRepositoryFile, type ReadScope } from './repository-file';

/** The memory file's path inside a workspace folder and inside the home folder. */
export const MEMORY_FILE = path.join('.sextant', 'memory.md');

/** Read limit for an existing memory file before appending (the rules reader reads up to the same). */
const MEMORY_FILE_MAX_BYTES = 1_000_000;

const HEADER =
  '# Memory\n\nFacts Sextant keeps for every request (each one you accepted). Edit or remove lines freely.\n\n';

export interface MemoryTargets {
  workspace?: string;
  user?: string;
}

/** Where each memory file is: the first workspace folder's, and the user's (absent without one). */
export function memoryTargets(roots: readonly string[], home: string | undefined): MemoryTargets {
  return {
    ...(roots[0] ? { workspace: path.join(roots[0], MEMORY_FILE) } : {}),
    ...(home ? { user: path.join(home, MEMORY_FILE) } : {}),
  };
}

/** How the card and the messages name each file. */
export function memoryLabels(targets: MemoryTargets): { workspace?: string; user?: string } {
  return {
    ...(targets.workspace ? { workspace: MEMORY_FILE.split(path.sep).join('/') } : {}),
    ...(targets.user ? { user: `~/${MEMORY_FILE.split(path.sep).join('/')}` } : {}),
  };
}

/**
 * Why `text` may not be kept as a memory (undefined: it may). `redact` is the host's redactor (key shapes
 * and the exact values of stored keys); the generic one with `password = …` assignments is applied too.
 */
export function memoryRefusal(text: string, redact?: (t: string) => string): string | undefined {
  const t = text.trim();
  if (!t) return 'Not kept: the memory is empty.';
  if (t.length > MEMORY_MAX_CHARS)
    return `Not kept: a memory is one fact of at most ${MEMORY_MAX_CHARS.toLocaleString('en-US')} characters.`;
  const generic = createRedactor([], { assignments: true });
  if (generic(t) !== t || (redact && redact(t) !== t))
    return (
      'Not kept: it looks like it holds a secret (an API key, token, password or private key). Memories are ' +
      'plain text sent with every request and readable by any tool — keep secrets out of them.'
    );
  return undefined;
}

export type MemoryWrite = { ok: true; path: string; label: string } | { ok: false; message: string };

/** One memory as a Markdown bullet: a single line, so it can never start a heading or a fence of its own. */
export function memoryLine(text: string): string {
  return `- ${text.trim().replace(/\s*\r?\n\s*/g, ' ')}\n`;
}

/** Appends a memory to the workspace's or the user's file, as the rules above allow. */
export async function appendMemory(
  files: Pick<WorkspacePort, 'realPath' | 'stat' | 'readFile' | 'readDir' | 'writeFile'>,
  where: { roots: readonly string[]; home: string | undefined },
  scope: MemoryScope,
  text: string,
  redact?: (t: string) => string,
): Promise<MemoryWrite> {
  const refused = memoryRefusal(text, redact);
  if (refused) return { ok: false, message: refused };
  const targets = memoryTargets(where.roots, where.home);
  const target = targets[scope];
  const label = memoryLabels(targets)[scope];
  if (!target || !label)
    return {
      ok: false,
      message:
        scope === 'workspace'
          ? 'Not kept: no folder is open, so there is no workspace memory file.'
          : 'Not kept: your home folder is unknown, so there is no user memory file.',
    };
  // The workspace's file must stay in the workspace; the user's in their home (the home still names the
  // key folders the reader refuses, for both).
  const readScope: ReadScope = { roots: scope === 'workspace' ? where.roots : [], home: where.home };
  const existing = await readRepositoryFile(files, target, readScope, MEMORY_FILE_MAX_BYTES);
  if (existing.kind === 'refused') return { ok: false, message: `Not kept: ${label} was ${existing.reason}.` };
  if (existing.kind === 'too-large') return { ok: false, message: `Not kept: ${label} is over 1 MB; trim it first.` };
  let writeTo = target;
  let before = '';
  if (existing.kind === 'text') {
    writeTo = existing.realPath;
    before = existing.text;
  } else {
    // A new file: its folder (when it exists) must resolve where the file itself would be read from.
    const folderProblem = await folderRefusal(files, path.dirname(target), scope, where);
    if (folderProblem) return { ok: false, message: `Not kept: ${label} ${folderProblem}.` };
  }
  const start = before ? (before.endsWith('\n') ? before : `${before}\n`) : HEADER;
  await files.writeFile(writeTo, Buffer.from(start + memoryLine(text), 'utf8'));
  return { ok: true, path: writeTo, label };
}

async function folderRefusal(
  files: Pick<WorkspacePort, 'realPath'>,
  folder: string,
  scope: MemoryScope,
  where: { roots: readonly string[]; home: string | undefined },
): Promise<string | undefined> {
  let real: string;
  try {
    real = await files.realPath(folder);
  } catch {
    return undefined; // not there yet: created inside the folder named
  }
  const bases = scope === 'workspace' ? [...where.roots] : where.home ? [where.home] : [];
  const realBases = await Promise.all(bases.map((b) => files.realPath(b).catch(() => b)));
  if ([...bases, ...realBases].some((b) => isInside(b, real))) return undefined;
  return scope === 'workspace'
    ? 'would be written outside the workspace (its folder is a link out of it)'
    : 'would be written outside your home folder (its folder is a link out of it)';
}
