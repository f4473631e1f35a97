import { readFileSync } from 'node:fs';

/** Resident set size of process `pid` now, MB (from /proc; 0 when it cannot be read). */
export function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}
