/**
 * What Linux's /proc says about another process: its resident memory now and its peak, and the
 * CPU time of all its threads. Used by the tests and scripts that run the service as a child
 * process (the bench, the soak and fuzz runs). Linux only.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

/** A memory field of /proc/<pid>/status in kB (`VmHWM`: peak resident set, `VmRSS`: now); NaN when absent. */
export function vmKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** Resident set size of process `pid` now, MB (0 when it cannot be read, e.g. once it has exited). */
export function rssMb(pid: number): number {
  try {
    return (vmKb(pid, 'VmRSS') || 0) / 1024;
  } catch {
    return 0;
  }
}

/** Clock ticks per second of /proc/<pid>/stat times (`getconf CLK_TCK`, normally 100). */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of the whole process (all threads, finished ones included), in seconds. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from #3 (state) on
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // #14 utime, #15 stime
}

/** Resets the process's peak RSS (VmHWM) to its current RSS; false when the kernel refuses. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
