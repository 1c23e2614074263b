// The environment for git that Sextant itself runs on the host, outside the box (command coverage's
// checkpoints, /review, @git diffs, untracked files). A repository's own config can name programs git
// runs on the way (core.fsmonitor, hooks, filter drivers): the safety settings every command gets,
// no hooks, and every filter driver the repository's own config defines turned off
// (git-safety.ts: repositoryOverrides). The drivers are found by asking git for the config as it will
// read it — includes, a worktree's config and a `commondir` elsewhere all counted.
import { execFile } from 'node:child_process';
import { defaultChildEnv } from './child-env';
import { HOST_GIT_CONFIG, repositoryOverrides, withGitConfig } from './git-safety';

const MAX_CONFIG_BYTES = 4_000_000;

/** The scrubbed environment with git's safety settings and the overrides for `cwd`'s repository. */
export async function hostGitEnv(
  cwd: string,
  base: Record<string, string> = defaultChildEnv(),
): Promise<Record<string, string>> {
  const env = withGitConfig(base, HOST_GIT_CONFIG);
  const listing = await new Promise<string>((resolve) => {
    execFile(
      'git',
      ['config', '--list', '--show-scope', '-z'],
      { cwd, env, encoding: 'utf8', maxBuffer: MAX_CONFIG_BYTES, windowsHide: true },
      // Not a repository, or git missing: nothing of a repository's to turn off.
      (err, stdout) => resolve(err ? '' : stdout),
    );
  });
  return withGitConfig(env, repositoryOverrides(listing));
}
