// Files that run later: the box keeps a command's writes inside the workspace, but some workspace files
// are run afterwards *outside* the box — package.json's scripts by the user's own `npm test`,
// node_modules/.bin/* by every npm script, a Makefile by `make`, lint and build configs by the editor's
// ESLint / Prettier / Jest extensions and by the build, conftest.py by pytest, .venv/bin/python by the
// Python extension's interpreter discovery. The box cannot make them read-only (a build or an install
// must write them), so it watches them: what a command changed in them is shown when the box is
// released, and kept only if the user says so (platform/sandbox/run-later-guard.ts does the watching).
// This file is the pure part: which files, which changes to package.json matter, and which commands
// are installs (whose changes the user already allowed by allowing the install).
import { parseShell } from '../permissions/shell/parse';

/** Names watched at the top of every writable workspace folder and extra root. */
export const RUN_LATER_NAMES: readonly string[] = [
  'package.json',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'tox.ini',
  'noxfile.py',
  'conftest.py',
  'pytest.ini',
  'build.rs',
  'Cargo.toml',
  'Gruntfile.js',
  'Rakefile',
  'Justfile',
  'justfile',
  'Taskfile.yml',
  '.pre-commit-config.yaml',
  '.lintstagedrc',
  '.babelrc',
  '.eslintrc',
  '.prettierrc',
  '.stylelintrc',
  '.mocharc.js',
  '.mocharc.cjs',
];

/**
 * Config files that load code when a tool reads them (a JS config is a program; a JSON or YAML one
 * names plugins): matched on the base name at the top of a writable folder.
 */
export const RUN_LATER_PATTERN = new RegExp(
  [
    '^(?:',
    '\\.(?:eslintrc|prettierrc|stylelintrc|babelrc|lintstagedrc)\\..+',
    '|(?:eslint|prettier|stylelint|babel|lint-staged)\\.config\\..+',
    '|(?:vite|vitest|webpack|rollup|esbuild|jest|karma|playwright|postcss|tailwind|svelte|next|nuxt|astro|tsup',
    '|rspack|turbo)\\.config\\..+',
    '|tsconfig(?:\\..+)?\\.json|jsconfig\\.json|gulpfile\\..+|[^/]+\\.mk',
    ')$',
  ].join(''),
);

/** Folders whose every entry is a program something else starts by name (npm scripts, the Python extension). */
export const RUN_LATER_BIN_FOLDERS: readonly string[] = ['node_modules/.bin', '.venv/bin', 'venv/bin', 'env/bin'];

/** Whether a base name at the top of a writable folder is a file that runs later. */
export function isRunLaterName(name: string): boolean {
  return RUN_LATER_NAMES.includes(name) || RUN_LATER_PATTERN.test(name);
}

/**
 * package.json fields that never make anything run: what `npm install <pkg>`, `npm version` and a
 * reformat change. Every other field may (scripts, bin, lifecycle scripts, `packageManager` which
 * corepack downloads, configs for ESLint / Jest / lint-staged / husky that name programs …).
 */
const INERT_PACKAGE_FIELDS = new Set([
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bundleDependencies',
  'bundledDependencies',
  'name',
  'version',
  'description',
  'keywords',
  'author',
  'contributors',
  'maintainers',
  'license',
  'homepage',
  'bugs',
  'repository',
  'funding',
  'private',
  'engines',
]);

/**
 * Whether a change to package.json touches anything that runs: a field other than the dependency lists
 * and the package's metadata. Text that is not a JSON object (before or after) counts as such a change.
 */
export function packageJsonRunsChanged(before: string | undefined, after: string | undefined): boolean {
  if (before === after) return false;
  const a = jsonObject(before);
  const b = jsonObject(after);
  if (!a || !b) return true;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (INERT_PACKAGE_FIELDS.has(k)) continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return true;
  }
  return false;
}

function jsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Package managers' install verbs: what they change in package.json, .bin and .venv/bin is their job. */
const INSTALL_VERBS: Record<string, readonly string[]> = {
  npm: [
    'install',
    'i',
    'in',
    'ins',
    'inst',
    'insta',
    'instal',
    'isnt',
    'isntall',
    'add',
    'ci',
    'clean-install',
    'uninstall',
    'remove',
    'rm',
    'un',
    'update',
    'up',
    'upgrade',
  ],
  pnpm: ['install', 'i', 'add', 'remove', 'rm', 'uninstall', 'update', 'up', 'upgrade'],
  yarn: ['install', 'add', 'remove', 'upgrade', 'up'],
  bun: ['install', 'i', 'add', 'a', 'remove', 'rm', 'update'],
  pip: ['install', 'uninstall'],
  pip3: ['install', 'uninstall'],
  poetry: ['install', 'add', 'remove', 'update', 'lock'],
  pipenv: ['install', 'uninstall'],
  cargo: ['add', 'remove', 'install'],
};

/**
 * Whether every simple command of `command` is a package install (`npm install x`, `pip install -r …`,
 * `yarn`, `uv pip install`, `python -m pip install`, `uv add`): only then may its changes to files that
 * run later be kept without asking — and only when the user allowed it. A parse the shell reader does not
 * trust, or any other command beside the install (`npm i x && sed -i …`), is not an install.
 */
export function isInstallCommand(command: string): boolean {
  const parsed = parseShell(command);
  if (parsed.problems.length || parsed.commands.length === 0) return false;
  return parsed.commands.every((c) => {
    if (c.origin !== 'command' || c.words.some((w) => w.dynamic)) return false;
    const argv = c.words.map((w) => w.value);
    return installArgv(argv);
  });
}

function installArgv(argv: readonly string[]): boolean {
  const [program, ...rest] = argv;
  if (!program) return false;
  // A program named by its path is whatever that file is, except a virtual environment's pip or python.
  if (program.includes('/') && !/(?:^|\/)bin\/(?:pip3?|python[\d.]*)$/.test(program)) return false;
  const name = program.slice(program.lastIndexOf('/') + 1);
  const verb = rest.find((a) => !a.startsWith('-'));
  // `yarn` alone installs.
  if (name === 'yarn' && verb === undefined) return true;
  // `python -m pip install …`
  if (/^python[\d.]*$/.test(name) && rest[0] === '-m' && (rest[1] === 'pip' || rest[1] === 'pip3'))
    return installArgv(rest.slice(1));
  // `uv pip install …`, `uv add …`, `uv sync`
  if (name === 'uv') {
    if (verb === 'pip') return installArgv(rest.slice(rest.indexOf('pip')));
    return verb === 'add' || verb === 'remove' || verb === 'sync';
  }
  return verb !== undefined && (INSTALL_VERBS[name]?.includes(verb) ?? false);
}

/** One watched path a boxed command created, changed or deleted. */
export interface RunLaterChange {
  /** Absolute. */
  path: string;
  /** Relative to the command's folder when inside it. */
  shown: string;
  what: 'created' | 'changed' | 'deleted';
  /** The text before and after, when it was a text file small enough to keep. */
  before?: string;
  after?: string;
  /** A link's target before and after (a node_modules/.bin entry is usually a link). */
  link?: { before?: string; after?: string };
  /** A folder was made, removed, or put where a link or file was (a .bin folder swapped for a link). */
  folder?: boolean;
  /** False when the old bytes were not kept (a file too large): undo cannot put it back. */
  undoable: boolean;
}

/** What one boxed command changed in the files that run later; settled once, by keep() or undo(). */
export interface RunLaterChanges {
  files: RunLaterChange[];
  keep(): void;
  /** Puts every file back as it was before the command; returns what could not be put back, and why. */
  undo(): string[];
}
