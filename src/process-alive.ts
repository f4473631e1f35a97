/**
 * Whether a process of this host with that id exists: signal 0 tests without sending anything,
 * and EPERM means it exists but belongs to someone else. Used to tell a gone owner's leftovers
 * (reservation leases, staged export files) from a live neighbour's.
 */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
