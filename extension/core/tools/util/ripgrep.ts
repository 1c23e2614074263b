// Runs ripgrep as a child process and collects its output, with abort and an output ceiling so a
// pathological search cannot exhaust memory.
import { spawn } from 'node:child_process';
import { defaultChildEnv } from '../../security/child-env';

export interface RgRun {
  stdout: string;
  stderr: string;
  /** 0 matches found, 1 nothing found, 2 an error (results may still be partial). */
  exitCode: number | null;
  /** True when output passed maxBytes and rg was stopped early. */
  truncated: boolean;
  aborted: boolean;
}

/**
 * Flags every search shares so the tools and the JS fallback agree: hidden files are searched
 * (but `.git` never), and .gitignore applies even outside a git repository.
 */
export const RG_BASE_FLAGS = ['--hidden', '--no-require-git', '--glob', '!.git', '--no-config', '--color', 'never'];

export function runRipgrep(
  rgPath: string,
  args: string[],
  cwd: string,
  signal?: AbortSignal,
  maxBytes = 64 * 1024 * 1024,
): Promise<RgRun> {
  return new Promise((resolve) => {
    // Like every process the agent starts, ripgrep does not get the host's keys.
    const env = defaultChildEnv();
    const child = spawn(rgPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let bytes = 0;
    let truncated = false;
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => {
      if (truncated) return;
      bytes += b.length;
      out.push(b);
      if (bytes > maxBytes) {
        truncated = true;
        child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (b: Buffer) => {
      if (err.length < 64) err.push(b);
    });
    const finish = (code: number | null, spawnError?: Error) => {
      signal?.removeEventListener('abort', onAbort);
      resolve({
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: spawnError ? String(spawnError.message) : Buffer.concat(err).toString('utf8'),
        exitCode: spawnError ? 2 : code,
        truncated,
        aborted,
      });
    };
    child.on('error', (e) => finish(2, e));
    child.on('close', (code) => finish(code));
  });
}

/**
 * Where VS Code keeps its ripgrep, most recent layout first: `@vscode/ripgrep-universal` with a
 * per-platform folder (current builds), `@vscode/ripgrep` (older), each possibly in the
 * `node_modules.asar.unpacked` folder of an asar-packed app.
 */
export function ripgrepCandidates(appRoot: string, platform: string, arch: string): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  const out: string[] = [];
  for (const mods of ['node_modules', 'node_modules.asar.unpacked']) {
    out.push(`${appRoot}/${mods}/@vscode/ripgrep-universal/bin/${platform}-${arch}/${exe}`);
  }
  for (const mods of ['node_modules', 'node_modules.asar.unpacked']) {
    out.push(`${appRoot}/${mods}/@vscode/ripgrep/bin/${exe}`);
    out.push(`${appRoot}/${mods}/vscode-ripgrep/bin/${exe}`);
  }
  return out;
}
