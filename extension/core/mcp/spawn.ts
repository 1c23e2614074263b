// The default way a stdio server's process starts: Node's spawn with exactly the environment the
// manager composed (never the host's whole environment). The sandbox wraps or replaces this function
// (`McpManagerDeps.spawn`) to run the same command inside its box.
import { spawn } from 'node:child_process';
import type { Spawner } from './session-port';

export const spawnServer: Spawner = (r) =>
  spawn(r.command, r.args, {
    env: r.env,
    ...(r.cwd ? { cwd: r.cwd } : {}),
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
    // Windows finds npx.cmd and the like only through a shell.
    shell: process.platform === 'win32',
  });
