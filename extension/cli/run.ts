// The command's bundle (dist/cli-main.js), loaded by the launcher (bin.ts): runs main() on this process
// and exits with its code once stdout is flushed. An unexpected failure is one redacted line and exit 1.
import { createLiveRedactor } from '../core/security/redact';
import { EXIT, main } from './main';
import { markStartup } from './startup-trace';

function exit(code: number): void {
  // Written output to a pipe is asynchronous: exit only once it has drained.
  process.stdout.write('', () => process.exit(code));
}

export function runCli(o: { version: string; bundleDir: string }): void {
  markStartup('loaded');
  const redact = createLiveRedactor(() => []);
  main({
    argv: process.argv.slice(2),
    env: process.env,
    cwd: process.cwd(),
    stdin: process.stdin,
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    bundleDir: o.bundleDir,
    version: o.version,
  }).then(exit, (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`sextant: error: ${redact(message.split('\n')[0] ?? '')}\n`);
    if (process.env.SEXTANT_DEBUG) process.stderr.write(`${redact(String((err as Error)?.stack ?? ''))}\n`);
    exit(EXIT.error);
  });
}
