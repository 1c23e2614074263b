// A stdio MCP server started inside the OS sandbox, as commands are: the same box (writes only to the
// workspace and build caches, protected paths read-only, secrets hidden, network only to the allowed
// hosts through the proxy). Where no backend works, or the user turned the box off, the server starts
// as before — the approval card already showed its full command line.
import { spawn } from 'node:child_process';
import { hostTempMessage, hostTempPathsIn } from '../sandbox/refusal';
import type { SandboxPort } from '../sandbox/types';
import type { SpawnRequest, Spawner } from './session-port';

/** `word` as one bash word: single-quoted, with `'` written as `'\''`. */
export function bashWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

export interface BoxedSpawnerOptions {
  /** The sandbox port, when the runtime has one (read at each start: the mode may change). */
  sandbox(): SandboxPort | undefined;
  /** How a server starts without a box (spawnServer). */
  unboxed: Spawner;
  /** The folder a server runs in when its entry names none (the first workspace folder). */
  cwd(): string | undefined;
}

export function boxedSpawner(o: BoxedSpawnerOptions): Spawner {
  return async (r: SpawnRequest) => {
    const sandbox = o.sandbox();
    const cwd = r.cwd ?? o.cwd();
    if (!sandbox?.status().active || !cwd) return o.unboxed(r);
    const launch = await sandbox.launch({
      // exec: the server is the box's process, so a Stop or a restart kills it with the box.
      command: `exec ${[r.command, ...r.args].map(bashWord).join(' ')}`,
      cwd,
      env: r.env,
      sessionId: 'mcp',
      callId: `mcp:${r.command}`,
      separateStderr: true,
      longLived: true,
    });
    // A server installed under the host's /tmp would fail with "not found": say why instead.
    const hidden = launch.existsOnHost ? hostTempPathsIn(launch.plan, [r.command, ...r.args], launch.existsOnHost) : [];
    if (hidden.length) {
      launch.release();
      throw new Error(`The MCP server cannot start in the sandbox: ${hostTempMessage(hidden)}.`);
    }
    try {
      const child = spawn(launch.file, launch.args, { cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'] });
      child.once('exit', () => launch.release());
      child.once('error', () => launch.release());
      return child;
    } catch (err) {
      launch.release();
      throw err;
    }
  };
}
