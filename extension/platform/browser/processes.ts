// The browser's processes, found by the profile folder on their command line (Linux /proc): what the
// tests check is gone after Stop, and what the memory figure sums.
import { readdirSync, readFileSync } from 'node:fs';

/** The processes whose command line names this profile (Linux /proc): the browser and its children. */
export function profileProcesses(profileDir: string): number[] {
  if (process.platform !== 'linux') return [];
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1').includes(profileDir)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * The memory of the browser's processes: the sum of their proportional set sizes (Linux
 * smaps_rollup), so pages Chromium's processes share are counted once, not once per process.
 */
export function profileProcessesMemory(profileDir: string): number | undefined {
  const pids = profileProcesses(profileDir);
  if (pids.length === 0) return undefined;
  let total = 0;
  for (const pid of pids) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'latin1'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}
