/**
 * Files an export thread writes straight to disk (src/export/stage-file.ts) instead of handing
 * their bytes to the main thread: the store then moves the file in (local: a rename in its own
 * directory) or uploads it from disk (S3), so neither thread holds the finished file.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportBytes, StagedFile } from './types.ts';

export const isStaged = (bytes: ExportBytes): bytes is StagedFile => !(bytes instanceof Uint8Array) && !Array.isArray(bytes);

/** A staged or spill file older than this belongs to an export that died (a cancelled export's thread is stopped mid-write). */
const STAGE_GRACE_MS = 3_600_000;

/** The local store's `.tmp-` prefix: a staged file its process died with goes with the store's sweep. */
const STAGE_PREFIX = '.tmp-stage-';

let stagingDir: string | null = null;

/**
 * Where export threads stage files (set by the open export store: its own directory, or the OS
 * temp directory for S3); null — exports hand their bytes over as before (tests without a store).
 */
export function exportStagingDir(): string | null {
  return stagingDir;
}

export function setExportStagingDir(dir: string | null): void {
  stagingDir = dir;
}

/** A new file name under `dir` for a staged file (`suffix` names its spill). */
export function stagePathIn(dir: string, suffix = ''): string {
  return join(dir, STAGE_PREFIX + randomBytes(9).toString('hex') + suffix);
}

/** Moves a staged file to `dest` (same file system: a rename; else copied, flushed, removed). */
export async function moveStaged(staged: StagedFile, dest: string): Promise<void> {
  try {
    await rename(staged.stagedPath, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(staged.stagedPath, dest);
    const handle = await open(dest, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await discardStaged(staged);
  }
}

export async function discardStaged(staged: StagedFile): Promise<void> {
  await rm(staged.stagedPath, { force: true });
}

/** Removes staged and spill files in `dir` older than an hour (the S3 store's staging directory); returns how many went. */
export async function sweepStaged(dir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(STAGE_PREFIX)) continue;
    const info = await stat(join(dir, name)).catch(() => null);
    if (info && now - info.mtimeMs > STAGE_GRACE_MS) {
      await rm(join(dir, name), { force: true });
      removed++;
    }
  }
  return removed;
}
