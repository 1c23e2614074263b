// Runs one hook command: its JSON input on stdin, stdout and stderr kept apart (stdout may be the
// decision), a timeout, and cancellation by the turn's Stop. It runs as commands do: in the OS box
// through the sandbox port when the box is active (the same writable roots, read-only protected paths,
// hidden secrets and network allow-list), otherwise under bash; either way with the environment
// scrubbed of keys and secret-named variables (the same as commands get). The process group is killed
// on timeout or Stop, so a hook that forks cannot linger.
import { spawn } from 'node:child_process';
import type { SandboxPort } from '../../sandbox/types';
import { commandShell, shellInvocation } from '../../tools/util/command-shell';

export interface HookProcessRequest {
  command: string;
  /** The JSON written to its stdin. */
  stdin: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** For the box's audit lines. */
  sessionId: string;
  callId: string;
}

export interface HookProcessResult {
  /** Null when it did not exit by itself (timed out, stopped, failed to start). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** It could not be started (no shell, the box could not be prepared). */
  startError?: string;
}

/** The port hooks run through; the runtime gives `boxedHookRunner`, tests may too. */
export type HookProcessRunner = (request: HookProcessRequest) => Promise<HookProcessResult>;

/** Output kept per stream: a decision is small, a chatty hook must not fill memory. */
const MAX_OUTPUT = 64 * 1024;

export function boxedHookRunner(sandbox: () => SandboxPort | undefined): HookProcessRunner {
  return async (r) => {
    const box = sandbox();
    if (!box?.status().active) return runProcess(r, undefined);
    let launch: Awaited<ReturnType<SandboxPort['launch']>>;
    try {
      launch = await box.launch({
        command: r.command,
        cwd: r.cwd,
        env: r.env,
        sessionId: r.sessionId,
        callId: r.callId,
        separateStderr: true,
      });
    } catch (err) {
      return failedStart(`the sandbox could not be prepared: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      return await runProcess(r, { file: launch.file, args: launch.args, env: launch.env });
    } finally {
      launch.release();
    }
  };
}

function failedStart(startError: string): HookProcessResult {
  return { exitCode: null, stdout: '', stderr: '', timedOut: false, aborted: false, startError };
}

function runProcess(
  r: HookProcessRequest,
  boxed: { file: string; args: string[]; env: Record<string, string> } | undefined,
): Promise<HookProcessResult> {
  if (r.signal.aborted) return Promise.resolve({ ...failedStart(''), startError: undefined, aborted: true });
  const shell = commandShell();
  const posix = process.platform !== 'win32';
  const [file, args, env] = boxed
    ? [boxed.file, boxed.args, boxed.env]
    : [...shellInvocation(shell, r.command, false), r.env];
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const child = spawn(file, args, {
      cwd: r.cwd,
      env,
      detached: posix,
      windowsHide: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const kill = () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        if (posix) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, r.timeoutMs);
    const onAbort = () => {
      aborted = true;
      kill();
    };
    r.signal.addEventListener('abort', onAbort, { once: true });
    const finish = (result: HookProcessResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      r.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += d.slice(0, MAX_OUTPUT - stdout.length);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += d.slice(0, MAX_OUTPUT - stderr.length);
    });
    child.on('error', (err) => finish({ ...failedStart(err.message), stdout, stderr, timedOut, aborted }));
    child.on('close', (code) => {
      const exitCode = timedOut || aborted ? null : code;
      finish({ exitCode, stdout, stderr, timedOut, aborted });
    });
    // A hook that never reads its input must not fail on EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(r.stdin);
  });
}
