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
  const given = Number.parseInt(env.GIT_CONFIG_COUNT ?? '0', 10);
  let n = Number.isFinite(given) && given > 0 ? given : 0;
  const out = { ...env };
  for (const [key, value] of GIT_SAFETY_CONFIG) {
    out[`GIT_CONFIG_KEY_${n}`] = key;
    out[`GIT_CONFIG_VALUE_${n}`] = value;
    n++;
  }
  out.GIT_CONFIG_COUNT = String(n);
  return out;
}
