// Path facts the permission policy judges by: containment in the workspace folders, the paths a
// write always asks for (they run code or hold Sextant's own settings), and the paths a read is
// always refused (keys, credentials, kernel and device files). Pure: no file system access — the
// caller resolves symbolic links and hands over real paths.
import { posix } from 'node:path';
import { globSource } from '../tools/util/globs';

/** Forward slashes, `.`/`..` resolved, no trailing slash (except the root). Windows drives become `/C:/…`. */
export function normalizePath(p: string): string {
  let s = p.replace(/\\/g, '/');
  if (/^[A-Za-z]:\//.test(s)) s = `/${s}`;
  s = posix.normalize(s);
  return s.length > 1 && s.endsWith('/') ? s.slice(0, -1) : s;
}

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p);
}

/** Whether `p` is `root` or lies below it (both normalized). */
export function isUnder(p: string, root: string): boolean {
  if (p === root) return true;
  return p.startsWith(root === '/' ? '/' : `${root}/`);
}

/** `~` and `~/x` against home; undefined for `~user` forms, which the policy does not guess. */
export function expandHome(p: string, home: string): string | undefined {
  if (p === '~') return home;
  if (p.startsWith('~/')) return `${home}${p.slice(1)}`;
  if (p.startsWith('~')) return undefined;
  return p;
}

/** The path as the user knows it: `~/…` under home, else absolute. */
export function showPath(p: string, home: string): string {
  if (home && home !== '/' && isUnder(p, home)) return p === home ? '~' : `~${p.slice(home.length)}`;
  return p;
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A glob that already starts with an absolute, normalized prefix, compiled (`*` stays in a folder, `**` crosses). */
export function absoluteGlob(glob: string, caseInsensitive = false): RegExp {
  return new RegExp(`^${globSource(glob)}$`, caseInsensitive ? 'i' : '');
}

export interface PathFact {
  /** Matches the normalized absolute path. */
  test(p: string): boolean;
  /** Short name for the card: ".git/", "package.json", "~/.ssh/". */
  label: string;
  /** Plain words for the approval card. */
  reason: string;
}

/** A folder name that is protected wherever it appears (`.git` in a nested repository too). */
function segment(name: string, reason: string): PathFact {
  const re = new RegExp(`(^|/)${escapeRegExp(name)}(/|$)`, 'i');
  return { test: (p) => re.test(p), label: `${name}/`, reason };
}

/** A file name protected wherever it appears; matched case-insensitively (macOS and Windows ignore case). */
function basename(re: RegExp, label: string, reason: string): PathFact {
  return { test: (p) => re.test(p.slice(p.lastIndexOf('/') + 1)), label, reason };
}

function underHome(home: string, rel: string, reason: string): PathFact {
  const root = `${home === '/' ? '' : home}/${rel}`;
  return { test: (p) => isUnder(p.toLowerCase(), root.toLowerCase()), label: `~/${rel}/`, reason };
}

const SHELL_RC = new RegExp(
  '^\\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|zlogout|' +
    'kshrc|mkshrc|cshrc|tcshrc|login|logout)$',
  'i',
);

/**
 * Writes that always ask, whatever the rules or mode say (a deny rule still denies): each of these
 * can make code run later — in git, the editor, a package manager, a shell — or steers the agent.
 * Names are matched in any folder, case-insensitively.
 */
export function protectedPaths(home: string): PathFact[] {
  return [
    segment('.git', 'writes to .git/ always ask: git hooks and config can run code'),
    segment('.vscode', 'writes to .vscode/ always ask: its tasks, launch configs and settings can run code'),
    basename(
      /\.code-workspace$/i,
      '*.code-workspace',
      'writes to a .code-workspace file always ask: its settings and tasks can run code',
    ),
    segment('.sextant', "writes to .sextant/ always ask: it holds this workspace's Sextant settings and rules"),
    basename(
      /^\.mcp\.json$/i,
      '.mcp.json',
      'writes to .mcp.json always ask: it starts MCP servers, which are programs',
    ),
    segment('.claude', "writes to .claude/ always ask: agents' settings, hooks and commands live there"),
    basename(
      /^(agents|claude)\.md$/i,
      'AGENTS.md',
      'writes to rules files (AGENTS.md, CLAUDE.md) always ask: they steer every later agent session',
    ),
    segment('.devcontainer', 'writes to .devcontainer/ always ask: it defines a container and commands run in it'),
    segment('.husky', 'writes to .husky/ always ask: its git hooks run on commit'),
    basename(/^\.envrc$/i, '.envrc', 'writes to .envrc always ask: direnv runs it as a shell script'),
    basename(/^\.npmrc$/i, '.npmrc', 'writes to .npmrc always ask: npm config can run scripts and change registries'),
    basename(/^\.yarnrc/i, '.yarnrc', 'writes to .yarnrc files always ask: yarn config can run code'),
    basename(/^package\.json$/i, 'package.json', 'writes to package.json always ask: its scripts run code'),
    basename(SHELL_RC, 'shell startup file', 'writes to shell startup files always ask: every new shell runs them'),
    basename(/^\.gitconfig$/i, '.gitconfig', 'writes to .gitconfig always ask: git config can run programs'),
    underHome(home, '.config/fish', 'writes to ~/.config/fish/ always ask: every new fish shell runs it'),
    underHome(home, '.config/git', 'writes to ~/.config/git/ always ask: git config can run programs'),
    underHome(home, '.config/autostart', 'writes to ~/.config/autostart/ always ask: programs there start at login'),
    underHome(home, '.config/systemd', 'writes to ~/.config/systemd/ always ask: services there start on their own'),
    underHome(home, '.ssh', 'writes to ~/.ssh/ always ask: it holds keys and authorized_keys'),
    underHome(home, '.gnupg', 'writes to ~/.gnupg/ always ask: it holds private keys'),
    underHome(home, '.aws', 'writes to ~/.aws/ always ask: it holds credentials'),
  ];
}

/**
 * Literal names the protected facts match, used to judge a write whose target is a shell pattern
 * (`cp x package.js?`): if the pattern could name one of these, the write asks.
 */
export const PROTECTED_NAMES = [
  '.git',
  '.vscode',
  'x.code-workspace',
  '.sextant',
  '.mcp.json',
  '.claude',
  'AGENTS.md',
  'CLAUDE.md',
  '.devcontainer',
  '.husky',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  'package.json',
  '.bashrc',
  '.bash_profile',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.gitconfig',
];

/** Reads that are refused outright, whatever the rules say: keys, credentials, kernel and device files. */
export function deniedReads(home: string): PathFact[] {
  const h = home === '/' ? '' : escapeRegExp(home);
  const fact = (src: string, label: string, reason: string): PathFact => {
    const re = new RegExp(`^${src}(/.*)?$`, 'i');
    return { test: (p) => re.test(p), label, reason };
  };
  return [
    fact(`${h}/\\.ssh`, '~/.ssh/', 'reads of ~/.ssh/ are refused: it holds your SSH private keys'),
    fact(`${h}/\\.aws`, '~/.aws/', 'reads of ~/.aws/ are refused: it holds cloud credentials'),
    fact(`${h}/\\.gnupg`, '~/.gnupg/', 'reads of ~/.gnupg/ are refused: it holds your private keys'),
    fact(
      `${h}/\\.config/(?:.*/)?credentials[^/]*`,
      '~/.config/**/credentials*',
      'reads of credentials files under ~/.config/ are refused',
    ),
    fact(`${h}/\\.netrc`, '~/.netrc', 'reads of ~/.netrc are refused: it holds passwords'),
    fact(`${h}/\\.git-credentials`, '~/.git-credentials', 'reads of ~/.git-credentials are refused: it holds tokens'),
    fact(`${h}/\\.docker/config\\.json`, '~/.docker/config.json', 'reads of ~/.docker/config.json are refused'),
    fact(`${h}/\\.kube`, '~/.kube/', 'reads of ~/.kube/ are refused: it holds cluster credentials'),
    fact('/proc', '/proc/', 'reads of /proc/ are refused: it exposes processes, their memory and environment'),
    fact('/sys', '/sys/', 'reads of /sys/ are refused: it exposes kernel and device state'),
    fact('/dev', '/dev/', 'reads of /dev/ are refused: devices such as /dev/zero never end'),
  ];
}

/** Folders holding the refused reads, for a search (grep) of an ancestor folder. */
export function deniedReadRoots(home: string): string[] {
  const h = home === '/' ? '' : home;
  return [`${h}/.ssh`, `${h}/.aws`, `${h}/.gnupg`, `${h}/.config`, `${h}/.kube`, '/proc', '/sys', '/dev'];
}

/** A word in a command that names a secret location (`~/.ssh/id_rsa`, `$HOME/.aws/credentials`). */
export const SECRET_WORD = new RegExp(
  [
    '(^|[/=:])\\.(ssh|aws|gnupg|kube|netrc|git-credentials)(/|$)',
    '/proc/[^/\\s]+/(environ|mem|maps)\\b',
    '(^|/)\\.config/.*credentials',
  ].join('|'),
  'i',
);
