// Git settings every command the agent runs gets, so repository-supplied configuration cannot run
// a program through a command a rule allows (`git status` in a cloned repository). A clone can ship
// an embedded bare repository laid out as ordinary files, its `config` naming core.fsmonitor: with
// safe.bareRepository=explicit git does not use such a repository unless told to (--git-dir), and
// fsmonitor and the pager are off. They go in through GIT_CONFIG_COUNT/KEY/VALUE, which git reads
// like `-c` options (above every config file), added after any the user's environment already has.

/** Key and value pairs, in the order they are added. */
export const GIT_SAFETY_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ['safe.bareRepository', 'explicit'],
  ['core.fsmonitor', 'false'],
  ['core.pager', 'cat'],
  ['protocol.ext.allow', 'never'],
];

/** `env` with the git safety settings appended to its GIT_CONFIG_COUNT list. */
export function withGitSafety(env: Record<string, string>): Record<string, string> {
  return withGitConfig(env, GIT_SAFETY_CONFIG);
}

/** `env` with `pairs` appended to its GIT_CONFIG_COUNT list (read like `-c`, above every config file). */
export function withGitConfig(
  env: Record<string, string>,
  pairs: ReadonlyArray<readonly [string, string]>,
): Record<string, string> {
  const given = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  let n = Number.isFinite(given) && given > 0 ? given : 0;
  const out = { ...env };
  for (const [key, value] of pairs) {
    out[`GIT_CONFIG_KEY_${n}`] = key;
    out[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  out.GIT_CONFIG_COUNT = String(n);
  return out;
}

/**
 * Settings Sextant's own git (run on the host, outside the box: command coverage, /review, @git) adds
 * to GIT_SAFETY_CONFIG: no hook runs (those read commands run none today; this keeps it so).
 */
export const HOST_GIT_CONFIG: ReadonlyArray<readonly [string, string]> = [['core.hooksPath', '/dev/null']];

/**
 * What a repository's own configuration (scopes `local` and `worktree`, with the files they include)
 * may run through the read commands Sextant runs on the host, turned off: every filter driver it
 * defines (an empty `process` makes git skip the driver's clean, smudge and process alike; `required`
 * off so a skipped filter is no error). A filter cannot be turned off by one blanket `-c`, so the
 * drivers are read from `git config --list --show-scope -z` first. The rest is off by other means:
 * core.fsmonitor and core.hooksPath above; external diff and textconv drivers by `--no-ext-diff
 * --no-textconv` on every diff Sextant asks for; aliases cannot shadow the built-in commands Sextant
 * runs; ssh, credential, editor, pager and gpg programs are not used by local read commands. Merge
 * drivers are replaced by `false` (a conflict), for the merge back of a worktree.
 */
export function repositoryOverrides(listing: string): Array<[string, string]> {
  // -z: "<scope>\0<key>\n<value>\0" per entry, so the parts alternate scope and "key\nvalue".
  const parts = listing.split('\0');
  const drivers = new Set<string>();
  const mergeDrivers = new Set<string>();
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (parts[i] !== 'local' && parts[i] !== 'worktree') continue;
    const key = parts[i + 1].split('\n', 1)[0];
    const m = /^filter\.(.+)\.(?:clean|smudge|process|required)$/i.exec(key);
    if (m) drivers.add(m[1]);
    const merge = /^merge\.(.+)\.driver$/i.exec(key);
    if (merge) mergeDrivers.add(merge[1]);
  }
  const out: Array<[string, string]> = [];
  for (const d of drivers)
    out.push(
      [`filter.${d}.process`, ''],
      [`filter.${d}.clean`, ''],
      [`filter.${d}.smudge`, ''],
      [`filter.${d}.required`, 'false'],
    );
  // A merge driver (Sextant's merge back: merge, rebase, apply --3way) is a program too. It cannot be
  // unset by `-c`; `false` in its place runs nothing of the repository's and makes every file it would
  // have merged a conflict — shown to the user, never resolved by the repository's program.
  for (const d of mergeDrivers) out.push([`merge.${d}.driver`, 'false']);
  return out;
}
