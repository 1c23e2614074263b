// The approved push runs where commands run: in the box when the sandbox is on (its network goes through
// the box's proxy, so the allowed-hosts rules decide whether the remote may be reached, as for any
// command), else as git on the host. git gets the same fixed environment either way (git-exec.ts).
import { bashWord } from '../mcp/boxed-spawn';
import { refusalNote } from '../sandbox/refusal';
import type { SandboxPort } from '../sandbox/types';
import { type GitResult, gitEnv, runGitCommand, runProgram } from './git-exec';

export interface BoxedGitOptions {
  /**
   * The session's own workspace folders when they are not the window's (a worktree session's worktree):
   * the box's writable roots, so its linked `.git` is shown as for the agent's own commands.
   */
  workspaceFolders?: readonly string[];
}

export function boxedGitRunner(sandbox: () => SandboxPort | undefined, o: BoxedGitOptions = {}) {
  return async (args: string[], cwd: string): Promise<GitResult> => {
    const box = sandbox();
    if (!box?.status().active) return runGitCommand(cwd, args);
    const launch = await box.launch({
      command: `exec git ${args.map(bashWord).join(' ')}`,
      cwd,
      env: await gitEnv(cwd),
      sessionId: 'git',
      callId: `git:${args[0] ?? ''}`,
      separateStderr: true,
      ...(o.workspaceFolders ? { workspaceFolders: o.workspaceFolders } : {}),
    });
    let refusals: ReturnType<typeof launch.release> = [];
    try {
      const r = await runProgram(launch.file, launch.args, cwd, launch.env);
      refusals = launch.release();
      // A host the box's rules do not allow: said with the rule that refused it.
      const why = refusals.map((x) => refusalNote(x)).join('\n');
      return why ? { ...r, stderr: `${r.stderr}\n${why}` } : r;
    } catch (err) {
      launch.release();
      throw err;
    }
  };
}
