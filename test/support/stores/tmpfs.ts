/**
 * Small file systems for storage-failure tests: a tmpfs of a given size (a disk that fills up) or
 * mounted read-only. Mounting needs root (or CAP_SYS_ADMIN); without it these return null and the
 * test says why it is skipped — and a read-only directory falls back to chmod, which stops
 * everyone but root.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Mounted {
  dir: string;
  /** Unmounts and removes the mount point. */
  close(): void;
}

/** A fresh tmpfs of `sizeKb` (options e.g. `ro`), or null when this process may not mount. */
export function mountTmpfs(sizeKb: number, options: string[] = []): Mounted | null {
  const dir = mkdtempSync(join(tmpdir(), 'cc-tmpfs-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', [`size=${sizeKb}k`, ...options].join(','), 'tmpfs', dir], { stdio: 'ignore' });
  if (r.status !== 0) {
    rmdirSync(dir);
    return null;
  }
  return {
    dir,
    close() {
      spawnSync('umount', [dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A directory this process cannot write: a read-only tmpfs when it may mount, else chmod 0500 when
 * that stops it (not root); null when neither works.
 */
export function readOnlyDir(): Mounted | null {
  const mounted = mountTmpfs(64, ['ro']);
  if (mounted) return mounted;
  const dir = mkdtempSync(join(tmpdir(), 'cc-ro-'));
  chmodSync(dir, 0o500);
  try {
    writeFileSync(join(dir, 'probe'), '');
  } catch {
    return {
      dir,
      close() {
        chmodSync(dir, 0o700);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  chmodSync(dir, 0o700);
  rmSync(dir, { recursive: true, force: true });
  return null;
}
