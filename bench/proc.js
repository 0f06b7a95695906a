// Readings of /proc: a process's resident memory and CPU time, the machine's busy time. Linux
// only, as the benchmarks are; a reading that cannot be made is undefined.
import fs from 'node:fs';

/** The kernel's clock ticks a second (USER_HZ), the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;

/** Resident memory of a process in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round((kb / 1024) * 10) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat; 10 ms ticks). */
export function cpuMs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** The time between two readings of cpuMs or machineBusyMs: NaN when either could not be read. */
export const elapsedMs = (before, after) => (after ?? Number.NaN) - (before ?? Number.NaN);

/** CPU time all processes of the machine have used so far, in ms (/proc/stat). */
export function machineBusyMs() {
  try {
    const [, ...ticks] = (fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/).map(Number);
    // The `cpu` line of /proc/stat has these eight counters and more.
    const [user, nice, system, , , irq, softirq, steal] = /** @type {[number, number, number, number, number, number, number, number]} */ (ticks);
    return ((user + nice + system + irq + softirq + steal) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * The lowest resident memory of an idle server over `seconds`, read each second. Right after a
 * restart and its first POST, RSS still holds what that work left (garbage, a young generation
 * grown for it); V8 gives it back by itself once the process has been idle a while (its memory
 * reducer, some seconds after the last full collection), which is what an app beside payemu sees.
 * @param {number | undefined} pid
 * @param {number} seconds
 */
export async function restingRss(pid, seconds) {
  let lowest = { mb: rssMb(pid) ?? Number.POSITIVE_INFINITY, afterSeconds: 0 };
  for (let s = 1; s <= seconds; s++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const mb = rssMb(pid) ?? Number.POSITIVE_INFINITY;
    if (mb < lowest.mb) lowest = { mb, afterSeconds: s };
  }
  return lowest;
}
