// The one way Sextant opens a file because a repository (or the user's own folders) says so — rules
// files and their `@` imports, skills, slash commands, agent definitions, `.mcp.json` — before any of
// it can reach the model. A repository controls its symbolic links, so the path's text proves nothing:
// `CLAUDE.md -> ~/.ssh/id_rsa` or `docs/env.md -> /proc/self/environ` must not be read.
//
// The rule, on the *real* path (every link resolved):
// - a file named inside a workspace folder (the repository's) must resolve inside a workspace folder;
// - a file named inside the user's home folder (the user's own: ~/.claude/CLAUDE.md, ~/.sextant/skills)
//   must resolve inside the home folder — a link into the user's dotfiles repository is theirs to make;
// - a file named inside an installed plugin's folder must resolve inside that folder;
// - a file named anywhere else is not read;
// - and in every case not where read_file refuses to read (keys, credentials, /proc, /sys, /dev), nor a
//   project's secret file (.env …), nor anything but a regular file (a FIFO or device never ends).
// The file read is the real path that was checked, never the link again: a link swapped in afterwards
// would need a process racing us on this machine, which a repository's content is not.
import * as path from 'node:path';
import { deniedReads, normalizePath, secretFileOf, showPath } from '../permissions/paths';
import type { WorkspacePort } from '../ports';

export type RepositoryFiles = Pick<WorkspacePort, 'realPath' | 'stat' | 'readFile' | 'readDir'>;

export interface ReadScope {
  /** Workspace folder roots, absolute (as the editor names them; their real paths are resolved here). */
  roots: readonly string[];
  /** The user's home folder; undefined: none (then only workspace files are read). */
  home: string | undefined;
  /** Installed plugins' folders (plugins/): a file named inside one must resolve inside it. */
  pluginRoots?: readonly string[];
}

/** What reading one file gave: its text, its size when too large, or why it was refused. */
export type RepositoryRead =
  | { kind: 'missing' }
  | { kind: 'refused'; reason: string }
  | { kind: 'too-large'; size: number }
  | { kind: 'text'; text: string; size: number; realPath: string };

const inside = (parent: string, child: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** The real path, or undefined when the file (or a link's target) does not exist. */
async function realOf(files: RepositoryFiles, abs: string): Promise<string | undefined> {
  try {
    return await files.realPath(abs);
  } catch {
    return undefined;
  }
}

/** Why `abs` may not be read at its real path `real`, in words for the user (undefined: it may). */
async function refusal(
  files: RepositoryFiles,
  abs: string,
  real: string,
  scope: ReadScope,
): Promise<string | undefined> {
  const home = scope.home;
  const homes = home ? [...new Set([home, (await realOf(files, home)) ?? home])] : [];
  const via = real !== abs ? ` (it is a link to ${home ? showPath(real, home) : real})` : '';
  // The same refusals read_file applies: keys and credentials, /proc, /sys, /dev — for the home as
  // given and as resolved (a home that is itself a link).
  for (const h of homes.length ? homes : ['/']) {
    const refused = deniedReads(normalizePath(h)).find(
      (f) => f.test(normalizePath(real)) || f.test(normalizePath(abs)),
    );
    if (refused) return `not read${via}: ${refused.reason}`;
  }
  const secret = secretFileOf(real) ?? secretFileOf(abs);
  if (secret) return `not read${via}: ${secret.label} files hold secrets and never go into the prompt`;
  const roots = scope.roots.filter((r) => inside(r, abs));
  if (roots.length) {
    const realRoots = await Promise.all(scope.roots.map(async (r) => (await realOf(files, r)) ?? r));
    if (realRoots.some((r) => inside(r, real))) return undefined;
    return `not read${via}: a workspace file must stay inside the workspace folders`;
  }
  const plugin = scope.pluginRoots?.find((r) => inside(r, abs));
  if (plugin) {
    if (inside((await realOf(files, plugin)) ?? plugin, real)) return undefined;
    return `not read${via}: a plugin's file must stay inside the plugin's folder`;
  }
  if (home && inside(home, abs)) {
    if (homes.some((h) => inside(h, real))) return undefined;
    return `not read${via}: a file of yours must stay inside your home folder`;
  }
  return `not read: ${abs} is neither in the workspace nor in your home folder`;
}

/** Reads one file the repository or the user's folders name, as the rule above allows. */
export async function readRepositoryFile(
  files: RepositoryFiles,
  abs: string,
  scope: ReadScope,
  maxBytes: number,
): Promise<RepositoryRead> {
  const real = await realOf(files, abs);
  if (!real) return { kind: 'missing' };
  const reason = await refusal(files, abs, real, scope);
  if (reason) return { kind: 'refused', reason };
  const stat = await files.stat(real).catch(() => undefined);
  if (!stat || stat.type === 'directory') return { kind: 'missing' };
  if (stat.type !== 'file') return { kind: 'refused', reason: 'not read: it is not a regular file' };
  if (stat.size > maxBytes) return { kind: 'too-large', size: stat.size };
  let bytes: Uint8Array;
  try {
    bytes = await files.readFile(real, { maxBytes });
  } catch (err) {
    // Grown past the limit since the stat: as large as that.
    if ((err as { code?: string }).code === 'EFBIG') return { kind: 'too-large', size: maxBytes + 1 };
    return { kind: 'missing' };
  }
  return { kind: 'text', text: Buffer.from(bytes).toString('utf8'), size: bytes.byteLength, realPath: real };
}

/**
 * A folder's entries, when the folder may be read by the same rule (its real path inside the workspace,
 * or inside home for the user's); otherwise none — a repository's `.claude/commands -> ~` lists nothing.
 */
export async function listRepositoryFolder(
  files: RepositoryFiles,
  abs: string,
  scope: ReadScope,
): Promise<Array<{ name: string; type: 'file' | 'directory' | 'other' }>> {
  const real = await realOf(files, abs);
  if (!real || (await refusal(files, abs, real, scope))) return [];
  const entries = await files.readDir(real).catch(() => []);
  return Promise.all(
    entries.map(async (e) => {
      // A link is listed as what it points to; reading it is judged again by readRepositoryFile.
      const type = e.type === 'symlink' ? (await files.stat(path.join(real, e.name)))?.type : e.type;
      return { name: e.name, type: type === 'file' || type === 'directory' ? type : 'other' };
    }),
  );
}
