// The macOS backend's rules: a sandbox-exec (Seatbelt) profile generated from the same box plan as
// bubblewrap's command line. Reads are allowed except the hidden secret locations; writes only under
// the writable roots and the session temp folder, never under the protected paths (present or not —
// Seatbelt matches paths, so a missing one needs no stand-in); network only to the host's proxy port.
import { COMMON_STATE_FILES, GIT_LIVE_FOLDERS, GIT_STATE_PATTERN } from '../../core/sandbox/git-in-box';
import type { BoxPlan } from '../../core/sandbox/types';

function regexQuote(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A string literal in the profile's Scheme syntax. */
function lit(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(plan: BoxPlan, proxyPort: number | undefined): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-fork)',
    '(allow process-exec)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
  ];
  for (const h of plan.hidden) lines.push(`(deny file-read* (subpath ${lit(h.path)}))`);
  const writable = [...plan.writable.map((w) => w.path), plan.sessionTemp, '/dev/null', '/dev/tty'];
  lines.push(`(allow file-write* ${writable.map((p) => `(subpath ${lit(p)})`).join(' ')})`);
  for (const r of plan.readOnly) lines.push(`(deny file-write* (subpath ${lit(r.path)}))`);
  // .git: Seatbelt matches paths, so no shadow is needed — nothing in it is writable but the live folders
  // and the files a commit rewrites (with their locks); the later rule wins.
  for (const g of plan.git) {
    lines.push(`(deny file-write* (subpath ${lit(g.path)}))`);
    const live = GIT_LIVE_FOLDERS.map((n) => `(subpath ${lit(`${g.path}/${n}`)})`).join(' ');
    const state = g.role === 'common' ? `(?:${COMMON_STATE_FILES.map(regexQuote).join('|')})` : GIT_STATE_PATTERN;
    const files = `(regex ${lit(`^${regexQuote(g.path)}/${state}(\\.lock)?$`)})`;
    lines.push(`(allow file-write* ${live} ${files})`);
  }
  for (const h of plan.hidden) lines.push(`(deny file-write* (subpath ${lit(h.path)}))`);
  if (proxyPort !== undefined) lines.push(`(allow network-outbound (remote ip ${lit(`localhost:${proxyPort}`)}))`);
  // A server the command starts may listen on loopback; connecting out goes only to the proxy (macOS has
  // no network namespace, so an open localhost would reach the host's own servers).
  lines.push('(allow network-bind (local ip "localhost:*"))', '(allow network-inbound (local ip "localhost:*"))');
  return `${lines.join('\n')}\n`;
}
