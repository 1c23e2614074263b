// The one list of paths Sextant guards, as data: where a write always asks (the file makes code
// run later, or steers the agent) and where secrets live (keys, tokens, credentials). The
// permission policy derives its tests from these entries (paths.ts); the sandbox binds the same
// entries read-only or hides them. Pure data and no imports, so both can read it without pulling
// in the rest of either part. Add a location here and both the policy and the sandbox follow.

/**
 * How an entry's `names` are placed:
 * - `folder-segment`: a folder of that name anywhere (`.git` in a nested repository too);
 * - `file-basename`: a file of that name anywhere (`match` when the name varies, e.g. `*.code-workspace`);
 * - `under-home`: a path below the user's home folder (`names` relative to it);
 * - `absolute`: a path from the file system root.
 */
export type ProtectedKind = 'folder-segment' | 'file-basename' | 'under-home' | 'absolute';

export interface ProtectedWriteEntry {
  kind: ProtectedKind;
  /** The concrete names (or paths, for under-home and absolute), forward slashes. */
  names: readonly string[];
  /** For a `file-basename` whose name varies: a regular expression over the base name (any case). */
  match?: string;
  /** Short name for the approval card: ".git/", "package.json", "~/.ssh/". */
  label: string;
  /** Plain words for the approval card. */
  reason: string;
}

/** Shell startup files: every new shell runs them. */
export const SHELL_STARTUP_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.mkshrc',
  '.cshrc',
  '.tcshrc',
  '.login',
  '.logout',
] as const;

/**
 * Writes that always ask, whatever the rules or mode say (a deny rule still denies): each of these
 * can make code run later — in git, the editor, a package manager, a shell — or steers the agent.
 * Names are matched in any folder, case-insensitively (macOS and Windows ignore case). The secret
 * locations below are protected from writes as well (see paths.ts).
 */
export const PROTECTED_WRITES: readonly ProtectedWriteEntry[] = [
  {
    kind: 'folder-segment',
    names: ['.git'],
    label: '.git/',
    reason: 'writes to .git/ always ask: git hooks and config can run code',
  },
  {
    kind: 'folder-segment',
    names: ['.vscode'],
    label: '.vscode/',
    reason: 'writes to .vscode/ always ask: its tasks, launch configs and settings can run code',
  },
  {
    kind: 'file-basename',
    names: ['.code-workspace'],
    match: '\\.code-workspace$',
    label: '*.code-workspace',
    reason: 'writes to a .code-workspace file always ask: its settings and tasks can run code',
  },
  {
    kind: 'folder-segment',
    names: ['.sextant'],
    label: '.sextant/',
    reason: "writes to .sextant/ always ask: it holds this workspace's Sextant settings and rules",
  },
  {
    kind: 'file-basename',
    names: ['.mcp.json'],
    label: '.mcp.json',
    reason: 'writes to .mcp.json always ask: it starts MCP servers, which are programs',
  },
  {
    kind: 'folder-segment',
    names: ['.claude'],
    label: '.claude/',
    reason: "writes to .claude/ always ask: agents' settings, hooks and commands live there",
  },
  {
    kind: 'file-basename',
    names: ['AGENTS.md', 'CLAUDE.md'],
    label: 'AGENTS.md',
    reason: 'writes to rules files (AGENTS.md, CLAUDE.md) always ask: they steer every later agent session',
  },
  {
    kind: 'folder-segment',
    names: ['.devcontainer'],
    label: '.devcontainer/',
    reason: 'writes to .devcontainer/ always ask: it defines a container and commands run in it',
  },
  {
    kind: 'folder-segment',
    names: ['.husky'],
    label: '.husky/',
    reason: 'writes to .husky/ always ask: its git hooks run on commit',
  },
  {
    kind: 'file-basename',
    names: ['.envrc'],
    label: '.envrc',
    reason: 'writes to .envrc always ask: direnv runs it as a shell script',
  },
  {
    kind: 'file-basename',
    names: ['.npmrc'],
    label: '.npmrc',
    reason: 'writes to .npmrc always ask: npm config can run scripts and change registries',
  },
  {
    kind: 'file-basename',
    names: ['.yarnrc', '.yarnrc.yml'],
    match: '^\\.yarnrc',
    label: '.yarnrc',
    reason: 'writes to .yarnrc files always ask: yarn config can run code',
  },
  {
    kind: 'file-basename',
    names: ['package.json'],
    label: 'package.json',
    reason: 'writes to package.json always ask: its scripts run code',
  },
  {
    kind: 'file-basename',
    names: SHELL_STARTUP_FILES,
    label: 'shell startup file',
    reason: 'writes to shell startup files always ask: every new shell runs them',
  },
  {
    kind: 'file-basename',
    names: ['.gitconfig'],
    label: '.gitconfig',
    reason: 'writes to .gitconfig always ask: git config can run programs',
  },
  {
    kind: 'under-home',
    names: ['.config/fish'],
    label: '~/.config/fish/',
    reason: 'writes to ~/.config/fish/ always ask: every new fish shell runs it',
  },
  {
    kind: 'under-home',
    names: ['.config/git'],
    label: '~/.config/git/',
    reason: 'writes to ~/.config/git/ always ask: git config can run programs',
  },
  {
    kind: 'under-home',
    names: ['.config/autostart'],
    label: '~/.config/autostart/',
    reason: 'writes to ~/.config/autostart/ always ask: programs there start at login',
  },
  {
    kind: 'under-home',
    names: ['.config/systemd'],
    label: '~/.config/systemd/',
    reason: 'writes to ~/.config/systemd/ always ask: services there start on their own',
  },
  {
    kind: 'under-home',
    names: ['.local/bin', 'bin'],
    label: '~/.local/bin/',
    reason: 'writes to ~/.local/bin/ and ~/bin/ always ask: programs there run in place of others on your PATH',
  },
  {
    kind: 'under-home',
    names: ['.cargo/config.toml', '.cargo/config'],
    label: '~/.cargo/config.toml',
    reason: 'writes to ~/.cargo/config.toml always ask: cargo config can run programs',
  },
];

/** Where a secret location starts: the user's home folder, or the file system root. */
export type SecretBase = 'home' | 'root';

export interface SecretLocation {
  base: SecretBase;
  /** Forward-slash path below the base; `*` stands for one name (a process id), `**` for any folders. */
  path: string;
  /** A folder: everything below it is secret too. */
  folder: boolean;
  /** Short name for the approval card: "~/.ssh/". */
  label: string;
  /** Why it is guarded, for the card: "it holds your SSH private keys". */
  what: string;
}

const home = (path: string, folder: boolean, what: string): SecretLocation => ({
  base: 'home',
  path,
  folder,
  label: `~/${path}${folder ? '/' : ''}`,
  what,
});

/**
 * Where keys, tokens and credentials live. A file tool's read there is refused, a command naming
 * one asks, a write there asks, and the sandbox hides them. Covers the common tools' defaults on
 * Linux and macOS.
 */
export const SECRET_LOCATIONS: readonly SecretLocation[] = [
  home('.ssh', true, 'it holds your SSH private keys'),
  home('.gnupg', true, 'it holds your private keys'),
  home('.aws', true, 'it holds cloud credentials'),
  home('.azure', true, 'it holds Azure credentials'),
  home('.config/gcloud', true, 'it holds Google Cloud credentials (application default credentials too)'),
  home('.kube', true, 'it holds cluster credentials'),
  home('.docker/config.json', false, 'it holds registry credentials'),
  home('.netrc', false, 'it holds passwords'),
  home('.git-credentials', false, 'it holds tokens'),
  home('.config/gh/hosts.yml', false, 'it holds your GitHub token'),
  home('.config/hub', false, 'it holds your GitHub token'),
  home('.config/glab-cli', true, 'it holds your GitLab token'),
  home('.npmrc', false, 'it holds npm registry tokens'),
  home('.yarnrc.yml', false, 'it holds registry tokens'),
  home('.pypirc', false, 'it holds package index passwords'),
  home('.gem/credentials', false, 'it holds your RubyGems key'),
  home('.cargo/credentials.toml', false, 'it holds your crates.io token'),
  home('.cargo/credentials', false, 'it holds your crates.io token'),
  home('.terraform.d/credentials.tfrc.json', false, 'it holds Terraform Cloud tokens'),
  home('.vault-token', false, 'it holds a Vault token'),
  home('.pgpass', false, 'it holds database passwords'),
  home('.my.cnf', false, 'it holds database passwords'),
  home('.password-store', true, 'it holds your passwords'),
  home('.local/share/keyrings', true, 'it holds your keyrings'),
  home('Library/Keychains', true, 'it holds your keychains'),
  {
    base: 'home',
    path: '.config/**/credentials*',
    folder: true,
    label: '~/.config/**/credentials*',
    what: 'credentials files there hold tokens',
  },
  {
    base: 'root',
    path: 'proc/**/environ',
    folder: false,
    label: '/proc/…/environ',
    what: "a process's environment holds keys",
  },
  {
    base: 'root',
    path: 'proc/**/mem',
    folder: false,
    label: '/proc/…/mem',
    what: "a process's memory holds keys",
  },
  {
    base: 'root',
    path: 'proc/**/maps',
    folder: false,
    label: '/proc/…/maps',
    what: "a process's memory map helps read its memory",
  },
];

/**
 * Files of the project itself that hold its secrets: `.env` and its kin (`.env.local`, `.env.production`,
 * direnv's `.envrc`), in any folder. Unlike the locations above they belong to the project and its tools
 * need them, so a read is not refused but asks — in read_file, `@` attachments and any command that
 * names one (`cat .env`, `source .env`) — unless a rule of the user's *names* the file
 * (`read_file(.env)`, `bash(cat .env)`): a broad rule such as `bash(cat *)` does not count. A search
 * (grep) leaves their lines out. The rules and skills reader never puts them in the prompt. Templates
 * (`.env.example`, `.env.sample`, `.env.template`) hold no secrets and read freely.
 */
export interface SecretFileName {
  /** A regular expression over the base name (any case). */
  match: string;
  /** Base names it matches that hold no secrets (any case). */
  except: string;
  /** Common names, for a shell pattern (`.env*`, `.e??`) that could expand to one. */
  names: readonly string[];
  /** The literal a user's allow rule must contain to lift the ask: `.env`. */
  ruleNames: string;
  /** Short name for the approval card. */
  label: string;
  /** Why it is guarded, for the card. */
  what: string;
}

/** Each `match` starts with a dot: secretFileWord (paths.ts) skips every other word at once. */
export const SECRET_FILE_NAMES: readonly SecretFileName[] = [
  {
    match: '^\\.env(rc)?(\\..+)?$',
    except: '\\.(example|sample|template)$',
    names: ['.env', '.env.local', '.env.development', '.env.production', '.env.test', '.envrc'],
    ruleNames: '.env',
    label: '.env',
    what: '.env files hold the project\u2019s secrets (API keys, passwords)',
  },
];

/**
 * Folders a file tool never reads, though a command may name them (`cat /proc/cpuinfo`): they expose
 * processes and kernel state, and device files such as /dev/zero never end. The sandbox keeps
 * them (programs need them); their secret parts are in SECRET_LOCATIONS.
 */
export const SYSTEM_READ_REFUSALS: readonly SecretLocation[] = [
  {
    base: 'root',
    path: 'proc',
    folder: true,
    label: '/proc/',
    what: 'it exposes processes, their memory and environment',
  },
  {
    base: 'root',
    path: 'sys',
    folder: true,
    label: '/sys/',
    what: 'it exposes kernel and device state',
  },
  {
    base: 'root',
    path: 'dev',
    folder: true,
    label: '/dev/',
    what: 'devices such as /dev/zero never end',
  },
];

/** A location as an absolute path (or pattern) for this home folder. */
export function locationPath(loc: { base: SecretBase; path: string }, homeDir: string): string {
  const h = homeDir === '/' ? '' : homeDir.replace(/\/+$/, '');
  return loc.base === 'home' ? `${h}/${loc.path}` : `/${loc.path}`;
}
