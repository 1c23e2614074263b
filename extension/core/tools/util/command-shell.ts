// The shell the bash tool (and a hook) runs commands in, and the permission policy judges them for.
// On Linux and macOS that is /bin/bash. On Windows it is Git Bash when installed (the same language
// the policy parses); otherwise Windows PowerShell, which the policy cannot judge (its quoting, `;`,
// `&` and script blocks are not bash's): then no rule allows a command, each asks, and the tool's
// description tells the model which shell it has (the tool used to say `bash -c` while cmd.exe ran).
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export type CommandShell = { kind: 'bash'; path: string } | { kind: 'powershell'; path: string };

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

/** Windows PowerShell, part of every Windows since 7 (found by SystemRoot; else by name on PATH). */
function windowsPowerShell(env: NodeJS.ProcessEnv): string {
  const root = env.SystemRoot ?? env.windir;
  const candidate = root && path.win32.join(root, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
  return candidate && existsSync(candidate) ? candidate : 'powershell.exe';
}

/** Looked up once per process. */
export function commandShell(platform: NodeJS.Platform = process.platform, env = process.env): CommandShell {
  if (platform !== 'win32') return { kind: 'bash', path: '/bin/bash' };
  if (found) return found;
  const bash = gitBash(env);
  found = bash ? { kind: 'bash', path: bash } : { kind: 'powershell', path: windowsPowerShell(env) };
  return found;
}

/**
 * The program and arguments that run `command` in `shell`. `joinStderr`: stderr into stdout inside the
 * shell (so the two interleave as in a terminal) — bash only; PowerShell's streams stay as they are.
 */
export function shellInvocation(shell: CommandShell, command: string, joinStderr: boolean): [string, string[]] {
  if (shell.kind === 'bash') return [shell.path, ['-c', joinStderr ? `exec 2>&1; ${command}` : command]];
  // No profile (the user's profile could print or change things), no prompts, the command as one string.
  return [shell.path, ['-NoLogo', '-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', command]];
}

/** One sentence for the bash tool's description: which shell the commands run in. */
export function commandShellNote(shell: CommandShell = commandShell()): string {
  if (shell.kind === 'powershell')
    return (
      'On this machine commands run in Windows PowerShell (Git Bash was not found): write PowerShell syntax; ' +
      'every command asks the user first.'
    );
  return process.platform === 'win32' ? 'Commands run in Git Bash.' : '';
}
