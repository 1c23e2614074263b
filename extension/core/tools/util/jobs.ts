// Shell jobs of one chat session: every bash command (foreground or background) runs as a job in
// its own process group, so a timeout, an abort or the end of the session kills the whole tree.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { defaultChildEnv } from '../../security/child-env';
import { commandShell, shellInvocation } from './command-shell';
import type { RunLaterChanges } from '../../sandbox/run-later';
import type { BoxRefusal } from '../../sandbox/types';
import { OutputBuffer } from './output-buffer';

export type JobStatus = 'running' | 'exited' | 'killed' | 'timed_out';

export interface Job {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly startedAt: number;
  endedAt?: number;
  status: JobStatus;
  exitCode: number | null;
  signal: string | null;
  readonly output: OutputBuffer;
  /** Absolute offset up to which bash_output has returned output. */
  readCursor: number;
  readonly background: boolean;
  readonly done: Promise<void>;
  /** Receive every output chunk as it arrives (live progress, the terminal mirror). */
  readonly listeners: Set<(chunk: string) => void>;
  pid?: number;
  /** It runs in the sandbox. */
  boxed?: boolean;
  /** Set when a boxed job failed because of the box: which rule refused what (core/sandbox/refusal.ts). */
  boxRefusal?: BoxRefusal;
  /** A foreground boxed job's changes to files that run later outside the box, until the bash tool settles them. */
  runLater?: RunLaterChanges;
  /** What was done about them (a background job's were undone): said with its status. */
  runLaterNote?: string;
}

export interface StartOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  background: boolean;
  /**
   * The whole environment of the command (TERM, PAGER and friends are set on top). Default: the
   * host's, scrubbed of secret-named variables (never the host's as it is: it holds the user's keys).
   */
  env?: Record<string, string>;
  /**
   * Start this program instead of `/bin/bash -c` (the sandbox's launch: bwrap or sandbox-exec wrapping
   * the same shell, core/sandbox/). Its env is used as is (the box adds its proxy variables). Kill and
   * timeout still signal the whole process group, which takes the box and everything in it down.
   */
  launch?: { file: string; args: string[]; env: Record<string, string> };
  /** Called once the process has exited (the box releases its proxy and stand-ins). */
  onExit?(): void;
}

const KILL_GRACE_MS = 2000;
const MAX_FINISHED_KEPT = 20;

export class JobManager {
  private readonly jobs = new Map<string, Job>();
  private readonly children = new Map<string, ChildProcess>();
  private seq = 0;
  private readonly onProcessExit = () => {
    for (const id of this.children.keys()) this.signalTree(id, 'SIGKILL');
  };
  private exitHooked = false;

  constructor(private readonly now: () => number = Date.now) {}

  start(o: StartOptions): Job {
    const id = `bash_${++this.seq}`;
    const posix = process.platform !== 'win32';
    const base = o.env ?? defaultChildEnv();
    const quiet = { TERM: 'dumb', PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
    const env = { ...base, ...quiet };
    const shell = commandShell();
    const child = o.launch
      ? // A boxed run: the sandbox port built the launch (bwrap / sandbox-exec around the shell).
        spawn(o.launch.file, o.launch.args, {
          cwd: o.cwd,
          env: { ...o.launch.env, ...quiet },
          detached: posix,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : // stderr joins stdout inside bash so the two interleave exactly as in a terminal.
        spawn(...shellInvocation(shell, o.command, true), {
          cwd: o.cwd,
          env,
          detached: posix,
          windowsHide: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
    let resolveDone!: () => void;
    const job: Job = {
      id,
      command: o.command,
      cwd: o.cwd,
      startedAt: this.now(),
      status: 'running',
      exitCode: null,
      signal: null,
      output: new OutputBuffer(),
      readCursor: 0,
      listeners: new Set(),
      background: o.background,
      done: new Promise<void>((r) => (resolveDone = r)),
      pid: child.pid,
    };
    this.jobs.set(id, job);
    this.children.set(id, child);
    this.hookExit();
    const decoders = [new StringDecoder('utf8'), new StringDecoder('utf8')];
    const push = (s: string) => {
      if (s === '') return;
      job.output.append(s);
      for (const l of job.listeners) l(s);
    };
    child.stdout?.on('data', (b: Buffer) => push(decoders[0].write(b)));
    child.stderr?.on('data', (b: Buffer) => push(decoders[1].write(b)));
    // Background jobs without an explicit timeout run until killed or the session ends.
    const timer = Number.isFinite(o.timeoutMs)
      ? setTimeout(() => {
          if (job.status === 'running') {
            job.status = 'timed_out';
            this.killTree(id);
          }
        }, o.timeoutMs)
      : undefined;
    let finished = false;
    const finish = (code: number | null, sig: string | null, err?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      push(decoders[0].end());
      push(decoders[1].end());
      if (err) push(`\n${err.message}\n`);
      job.exitCode = code;
      job.signal = sig;
      if (job.status === 'running') job.status = 'exited';
      job.endedAt = this.now();
      this.children.delete(id);
      if (this.children.size === 0) this.unhookExit();
      this.evictFinished();
      o.onExit?.();
      resolveDone();
    };
    child.on('error', (e) => finish(127, null, e));
    child.on('exit', (code, sig) => {
      // Give the pipes a moment to drain; a leftover grandchild may hold them open forever.
      const t = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, sig);
      }, 250);
      child.once('close', () => {
        clearTimeout(t);
        finish(code, sig);
      });
    });
    return job;
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  list(): Job[] {
    return [...this.jobs.values()];
  }

  /** Forgets a finished job (foreground jobs whose output needs no paging). */
  forget(id: string): void {
    if (!this.children.has(id)) this.jobs.delete(id);
  }

  /** Kills a job's process tree: SIGTERM, then SIGKILL after a grace period. */
  kill(id: string, status: JobStatus = 'killed'): boolean {
    const job = this.jobs.get(id);
    if (job?.status !== 'running') return false;
    job.status = status;
    this.killTree(id);
    return true;
  }

  private killTree(id: string): void {
    this.signalTree(id, 'SIGTERM');
    const t = setTimeout(() => this.signalTree(id, 'SIGKILL'), KILL_GRACE_MS);
    t.unref?.();
  }

  private signalTree(id: string, sig: NodeJS.Signals): void {
    const child = this.children.get(id);
    if (!child?.pid) return;
    try {
      if (process.platform === 'win32')
        spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true });
      else process.kill(-child.pid, sig);
    } catch {
      /* already gone */
    }
  }

  /** Kills every running job (end of session, VS Code exit). */
  disposeAll(): void {
    for (const id of [...this.children.keys()]) {
      const job = this.jobs.get(id);
      if (job && job.status === 'running') job.status = 'killed';
      this.signalTree(id, 'SIGKILL');
    }
    this.unhookExit();
  }

  private evictFinished(): void {
    const finished = [...this.jobs.values()].filter((j) => j.status !== 'running');
    for (const j of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_KEPT))) this.jobs.delete(j.id);
  }

  private hookExit(): void {
    if (this.exitHooked) return;
    process.on('exit', this.onProcessExit);
    this.exitHooked = true;
  }

  private unhookExit(): void {
    if (!this.exitHooked) return;
    process.off('exit', this.onProcessExit);
    this.exitHooked = false;
  }
}
