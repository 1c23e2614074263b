// The shell the bash tool runs commands in, and the permission policy judges them for. On Linux and
// macOS that is /bin/bash. On Windows it is Git Bash when installed (the same language the policy
// parses); otherwise commands go to cmd.exe, which the policy cannot judge (it does not treat ' as a
// quote, so `npm test '& calc & rem '` would run calc): then no rule allows a command, each asks,
// and the tool's description tells the model which shell it has.
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export type CommandShell = { kind: 'bash'; path: string } | { kind: 'cmd' };

let found: CommandShell | undefined;

/** Git for Windows' bash in its usual install places (bin/bash.exe sets up PATH for its tools). */
function gitBash(env: NodeJS.ProcessEnv): string | undefined {
  const roots = [
    env.ProgramFiles,
    env['ProgramFiles(x86)'],
    env.LOCALAPPDATA && path.join(env.LOCALAPPDATA, 'Programs'),
  ];
  for (const root of roots) {
    if (!root) continue;
    const candidate = path.join(root, 'Git', 'bin', 'bash.exe');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Looked up once per process. */
export function commandShell(platform: NodeJS.Platform = process.platform, env = process.env): CommandShell {
  if (platform !== 'win32') return { kind: 'bash', path: '/bin/bash' };
  found ??= ((p) => (p ? { kind: 'bash', path: p } : { kind: 'cmd' }))(gitBash(env)) as CommandShell;
  return found;
}

/** One sentence for the bash tool's description: which shell the commands run in. */
export function commandShellNote(shell: CommandShell = commandShell()): string {
  if (shell.kind === 'cmd')
    return (
      'On this machine commands run in Windows cmd.exe (Git Bash was not found): write cmd syntax; every ' +
      'command asks the user first.'
    );
  return process.platform === 'win32' ? 'Commands run in Git Bash.' : '';
}
