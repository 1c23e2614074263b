// Waits until the real window is idle: the CPU time of this run's processes — code-server, its
// extension host and other children, Chromium — those whose command line names the run's folder and
// all their descendants, read from /proc — grows by less than IDLE_SHARE of one core over a window of
// WINDOW_MS. A window just (re)loaded keeps its extension host, workbench and TS server busy for many
// seconds; steps timed during that measure the start-up, not Sextant. Linux only (elsewhere, no wait).
import { readdirSync, readFileSync } from 'node:fs';

const WINDOW_MS = 2_000;
const IDLE_SHARE = 0.15;
const TICKS_PER_S = 100; // USER_HZ on Linux

/** pid → parent pid and CPU ticks (user + system), for every process readable now. */
function processes(): Map<number, { ppid: number; ticks: number; cmdline: string }> {
  const out = new Map<number, { ppid: number; ticks: number; cmdline: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields follow the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      out.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), cmdline });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** CPU seconds used so far by the processes of the run in `runDir` and their descendants. */
function cpuSeconds(runDir: string): number {
  const all = processes();
  const ours = new Set([...all].filter(([, p]) => p.cmdline.includes(runDir)).map(([pid]) => pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of all)
      if (!ours.has(pid) && ours.has(p.ppid)) {
        ours.add(pid);
        grew = true;
      }
  }
  let ticks = 0;
  for (const pid of ours) ticks += all.get(pid)?.ticks ?? 0;
  return ticks / TICKS_PER_S;
}

/** Resolves once the window is idle, or after `maxMs` with how busy it still was (a share of a core). */
export async function waitForIdleWindow(runDir: string, maxMs = 120_000): Promise<{ ms: number; share: number }> {
  const start = Date.now();
  if (process.platform !== 'linux') return { ms: 0, share: Number.NaN };
  let before = cpuSeconds(runDir);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const now = cpuSeconds(runDir);
    const share = (now - before) / (WINDOW_MS / 1000);
    before = now;
    if (share < IDLE_SHARE || Date.now() - start >= maxMs) return { ms: Date.now() - start, share };
  }
}
