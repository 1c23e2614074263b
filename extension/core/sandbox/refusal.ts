// After a boxed command fails: which of the box's rules refused it, in words the card and the model
// both get, and the narrow rule that would widen the box (a host, a folder) where one may be offered.
// Read from the command's own error text (EROFS with a path, a refused connection) and from the
// connections the box's proxy refused — the proxy's list is exact, the text is a best effort.
import { posix } from 'node:path';
import { isUnder, normalizePath, showPath } from '../permissions/paths';
import { GIT_LIVE_FOLDERS, gitEntryReason, isGitStateFile } from './git-in-box';
import { socketFolderReason } from './host-sockets';
import type { BoxConnection, BoxPlan, BoxRefusal } from './types';

/** "…: Read-only file system" messages with the path they name (bash, coreutils, node, python, git). */
const READ_ONLY_PATTERNS = [
  /(?:^|\s)(?:bash: (?:line \d+: )?)?([~/.][^\n:'"]*?): Read-only file system/m,
  // bash names a redirection's file as typed: a relative one (vendor/lib/.git/config) too.
  /^bash: (?:line \d+: )?([^\s:'"][^\n:'"]*?): Read-only file system/m,
  /cannot (?:touch|create[^']*|remove|open|make directory|move)\s+'([^']+)'[^\n]*Read-only file system/m,
  /EROFS: read-only file system, \w+ '([^']+)'/m,
  /\[Errno 30\] Read-only file system: '([^']+)'/m,
  /(?:could not|unable to|cannot) (?:write|create|open|lock)[^'"\n]*['"]([^'"\n]+)['"][^\n]*Read-only file system/im,
];

/** A missing protected file's stand-in is an empty read-only folder: writing the file says so. */
const STAND_IN_PATTERNS = [
  /(?:^|\s)(?:bash: (?:line \d+: )?)?([~/.][^\n:'"]*?): Is a directory/m,
  /EISDIR: illegal operation on a directory, \w+ '([^']+)'/m,
  /\[Errno 21\] Is a directory: '([^']+)'/m,
];

/** What programs print when they try the network without the proxy: there is no route out of the box. */
const NO_NETWORK = new RegExp(
  [
    'Network is unreachable|ENETUNREACH|Could not resolve host|Temporary failure in name resolution',
    'EAI_AGAIN|getaddrinfo|Name or service not known|No address associated',
    "ECONNREFUSED|Connection refused|Couldn't connect to server",
  ].join('|'),
  'i',
);

export interface RefusalInput {
  plan: BoxPlan;
  output: string;
  connections: readonly BoxConnection[];
  /**
   * Whether a path exists on the host (outside the box): a path under /tmp the command could not find
   * may be the host's /tmp, which the box does not show. Without it, such paths are not explained.
   */
  existsOnHost?(path: string): boolean;
}

/** The first refusal that explains the failure, or undefined when nothing points at the box. */
export function explainRefusal(input: RefusalInput): BoxRefusal | undefined {
  const refused = input.connections.find((c) => !c.allowed);
  if (refused) return networkRefusal(refused.host, refused.port, refused.rule);
  for (const re of READ_ONLY_PATTERNS) {
    const m = re.exec(input.output);
    if (m?.[1]) return pathRefusal(input, m[1]);
  }
  for (const re of STAND_IN_PATTERNS) {
    const m = re.exec(input.output);
    const r = m?.[1] ? pathRefusal(input, m[1]) : undefined;
    if (r?.kind === 'protected') return r;
  }
  const missing = missingPathRefusal(input);
  if (missing) return missing;
  if (NO_NETWORK.test(input.output)) {
    return {
      kind: 'network',
      target: 'the network',
      rule:
        'the box has no network: only hosts in sextant.sandbox.network.allowedHosts are reached, through the ' +
        'proxy in HTTP_PROXY / HTTPS_PROXY / ALL_PROXY; programs that ignore those variables have no route out, ' +
        "and the box's loopback is its own (servers on the host are not there)",
    };
  }
  return undefined;
}

/**
 * A path the command could not find that the box hides: a secret location, a folder of the host's
 * sockets, or the host's /tmp (the box's /tmp is the chat's own).
 */
const MISSING = new RegExp(
  [
    `(?:^|\\s)(?:bash: (?:line \\d+: )?)?([~/][^\\n:'"]*?)'?: No such file or directory`,
    "ENOENT: no such file or directory, \\w+ '([^']+)'",
    // coreutils quotes a path with spaces: cat: '/a b/c': No such file or directory
    "'([~/][^'\\n]*)': No such file or directory",
    'connect ENOENT (/[^\\n]+)',
  ].join('|'),
  'gm',
);

function missingPathRefusal(input: RefusalInput): BoxRefusal | undefined {
  const { plan } = input;
  for (const m of input.output.matchAll(MISSING)) {
    const raw = m[1] ?? m[2] ?? m[3] ?? m[4];
    const path = normalizePath(raw.startsWith('~/') ? `${plan.home}${raw.slice(1)}` : raw);
    const shown = showPath(path, plan.home);
    const secret = plan.hidden.find((h) => isUnder(path, h.path));
    if (secret) return { kind: 'secret', target: shown, rule: secret.reason };
    const sockets = plan.hostSockets.find((f) => isUnder(path, f));
    if (sockets) return { kind: 'secret', target: shown, rule: socketFolderReason(sockets) };
    const temp = hostTempRefusal(input, path);
    if (temp) return temp;
  }
  return undefined;
}

/** A host path under /tmp the box does not show (it is not a writable root), when it is there on the host. */
function hostTempRefusal(input: RefusalInput, path: string): BoxRefusal | undefined {
  const { plan } = input;
  if (!isUnder(path, '/tmp') || path === '/tmp' || !input.existsOnHost) return undefined;
  if (plan.writable.some((w) => isUnder(path, w.path))) return undefined;
  const folder = posix.dirname(path);
  const onHost = input.existsOnHost(path) ? path : input.existsOnHost(folder) ? folder : undefined;
  if (!onHost) return undefined;
  const shown = showPath(path, plan.home);
  const widenable = onHost === path && folder === '/tmp' ? path : folder;
  return {
    kind: 'outside',
    target: shown,
    rule:
      `${shown} is outside the box's writable folders: the host's /tmp is not visible in the box, whose /tmp ` +
      "is the chat's own; allow the folder (sextant.sandbox.extraWriteRoots) to see and write it in the box",
    ...(widenable !== '/tmp'
      ? { widen: { setting: 'sandbox.extraWriteRoots', value: widenable, label: 'Allow this folder' } }
      : {}),
  };
}

function networkRefusal(host: string, port: number, why: string): BoxRefusal {
  return {
    kind: 'network',
    target: `${host}:${port}`,
    rule: `the box's proxy refused ${host}:${port}: ${why}`,
    widen: { setting: 'sandbox.network.allowedHosts', value: host, label: 'Allow this host' },
  };
}

function pathRefusal(input: RefusalInput, raw: string): BoxRefusal {
  const { plan } = input;
  const home = plan.home;
  const expanded = raw.startsWith('~/') ? `${home}${raw.slice(1)}` : raw;
  const path = normalizePath(expanded.startsWith('/') ? expanded : posix.join(plan.cwd, expanded));
  const shown = isUnder(path, plan.cwd) && path !== plan.cwd ? path.slice(plan.cwd.length + 1) : showPath(path, home);
  const git = gitEntryAt(plan, path);
  if (git) return { kind: 'protected', target: shown, rule: gitEntryReason(git) };
  const ro = plan.readOnly.find((r) => isUnder(path, r.path));
  if (ro) return { kind: 'protected', target: shown, rule: ro.reason };
  const secret = plan.hidden.find((h) => isUnder(path, h.path));
  if (secret) return { kind: 'secret', target: shown, rule: secret.reason };
  const folder = posix.dirname(path);
  return {
    kind: 'outside',
    target: shown,
    rule:
      `${shown} is outside the box's writable folders (the workspace, sextant.sandbox.extraWriteRoots, ` +
      'the build caches and /tmp)',
    ...(folder !== '/' && folder !== home
      ? { widen: { setting: 'sandbox.extraWriteRoots', value: folder, label: 'Allow this folder' } }
      : {}),
  };
}

/**
 * Absolute paths among `words` (a server's command and arguments) that lie in the host's /tmp outside
 * the box's writable folders and exist on the host: the box would not show them (its /tmp is its own).
 */
export function hostTempPathsIn(
  plan: BoxPlan,
  words: readonly string[],
  existsOnHost: (path: string) => boolean,
): string[] {
  return words
    .filter((w) => w.startsWith('/'))
    .map(normalizePath)
    .filter((p) => isUnder(p, '/tmp') && p !== '/tmp' && !plan.writable.some((w) => isUnder(p, w.path)))
    .filter((p) => existsOnHost(p));
}

/** Why a program under the host's /tmp cannot start in the box, and what to do about it. */
export function hostTempMessage(paths: readonly string[]): string {
  const folder = posix.dirname(paths[0]);
  return (
    `${paths.join(', ')} ${paths.length > 1 ? 'are' : 'is'} in the host's /tmp, which the sandbox does not show ` +
    `(a boxed process has a /tmp of its own): move it out of /tmp, or add ${folder} to ` +
    'sextant.sandbox.extraWriteRoots'
  );
}

/** The top-level `.git` entry `path` is in, when the box keeps that entry read-only. */
function gitEntryAt(plan: BoxPlan, path: string): string | undefined {
  for (const g of plan.git) {
    for (const base of [g.path, g.via]) {
      if (!isUnder(path, base) || path === base) continue;
      const name = path.slice(base.length + 1).split('/')[0];
      if (GIT_LIVE_FOLDERS.includes(name) || isGitStateFile(name)) return undefined;
      return name;
    }
  }
  return undefined;
}

/** The line appended to a refused command's output, for the model and the card. */
export function refusalNote(r: BoxRefusal): string {
  return `[sandbox] refused ${r.target}: ${r.rule}`;
}
