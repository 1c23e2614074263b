// Whether a sandbox backend works on this machine, found once by trying it: bubblewrap on Linux
// (a real run with the namespaces the box uses, so a kernel or AppArmor that refuses unprivileged
// user namespaces is caught here), sandbox-exec on macOS, none on Windows — each "no" with a fix.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { BOX_BASE_ARGS } from './bwrap-args';

export type Detected =
  | { ok: true; backend: 'bubblewrap'; bwrap: string }
  | { ok: true; backend: 'sandbox-exec' }
  | { ok: false; reason: string; fix: string };

const BWRAP_PATHS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];

export function detectBackend(platform: NodeJS.Platform = process.platform): Detected {
  if (platform === 'win32')
    return {
      ok: false,
      reason: 'Windows has no sandbox backend for commands yet',
      fix: 'run VS Code in WSL or a dev container to get the Linux box; until then every command asks',
    };
  if (platform === 'darwin') {
    return existsSync('/usr/bin/sandbox-exec')
      ? { ok: true, backend: 'sandbox-exec' }
      : { ok: false, reason: '/usr/bin/sandbox-exec is missing', fix: 'it ships with macOS; check your system' };
  }
  if (platform !== 'linux')
    return { ok: false, reason: `no sandbox backend for ${platform}`, fix: 'use Linux or macOS' };
  const bwrap = BWRAP_PATHS.find((p) => existsSync(p));
  if (!bwrap)
    return {
      ok: false,
      reason: 'bubblewrap (bwrap) is not installed',
      fix: 'install it: sudo apt install bubblewrap (Debian/Ubuntu), sudo dnf install bubblewrap (Fedora)',
    };
  const r = spawnSync(bwrap, [...BOX_BASE_ARGS, '/bin/true'], { encoding: 'utf8', timeout: 10_000 });
  if (r.status === 0) return { ok: true, backend: 'bubblewrap', bwrap };
  const err = `${r.stderr ?? ''}${r.error ? String(r.error) : ''}`.trim();
  const userns = /namespace|uid map|setting up uid|Operation not permitted|Permission denied/i.test(err);
  return {
    ok: false,
    reason: `bwrap cannot create its namespaces here${err ? ` (${err.split('\n')[0]})` : ''}`,
    fix: userns
      ? 'allow unprivileged user namespaces — on Ubuntu 24.04: an AppArmor profile for /usr/bin/bwrap, or ' +
        'sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0; elsewhere ' +
        'sudo sysctl kernel.unprivileged_userns_clone=1'
      : 'check that bwrap runs: bwrap --ro-bind / / --unshare-net true',
  };
}
