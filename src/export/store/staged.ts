/**
 * Files an export thread writes straight to disk (src/export/stage-file.ts) instead of handing
 * their bytes to the main thread: the store then moves the file in (local: a rename in its own
 * directory) or uploads it from disk (S3), so neither thread holds the finished file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import type { ExportBytes, StagedFile } from './types.ts';
import { processExists } from '../../process-alive.ts';

export const isStaged = (bytes: ExportBytes): bytes is StagedFile => !(bytes instanceof Uint8Array) && !Array.isArray(bytes);

/**
 * A temp file or directory older than this goes whoever made it: the fallback when its maker
 * cannot be told apart from a live process (another host on a shared disk, a recycled process id).
 */
const TEMP_GRACE_MS = 3_600_000;

/** Every temp name in an export directory starts so (the local store's puts too): the sweeps look only at these. */
export const TEMP_PREFIX = '.tmp-';

/** The local store's `.tmp-` prefix: a staged file its process died with goes with the store's sweep. */
const STAGE_PREFIX = `${TEMP_PREFIX}stage-`;

/**
 * Who made a temp name: host, process id and a random part drawn once per process, so the sweep at
 * start can tell a dead process's leftovers (its id gone, or reused by this very process after a
 * restart: the random part differs) from a live neighbour's work on the same data directory.
 */
const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const THIS_PROCESS = { host: HOST, pid: process.pid, run: randomBytes(4).toString('hex') };
const TAG = `${THIS_PROCESS.host}.${THIS_PROCESS.pid}.${THIS_PROCESS.run}`;
const TAGGED = /^\.tmp-(?:stage-)?([0-9a-f]{8})\.(\d+)\.([0-9a-f]{8})-/;

/** This process's temp files and directories still in use (staged, spilled or being put). */
const inUse = new Set<string>();

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

/** A new file name under `dir` for a staged file (`suffix` names its spill), tagged with this process. */
export function stagePathIn(dir: string, suffix = ''): string {
  return join(dir, `${STAGE_PREFIX}${TAG}-${randomBytes(9).toString('hex')}${suffix}`);
}

/** A new temp name under `dir` (the local store's put directories), tagged with this process. */
export function tempPathIn(dir: string): string {
  return join(dir, `${TEMP_PREFIX}${TAG}-${randomBytes(8).toString('hex')}`);
}

/** Marks a temp path (and its `.spill`) as in use until `releaseTemp`: the sweep leaves it alone. */
export function claimTemp(path: string): void {
  inUse.add(basename(path));
}

/** The temp path is no longer this process's (moved in, or removed). */
export function releaseTemp(path: string): void {
  inUse.delete(basename(path));
}

/**
 * Whether a `.tmp-` entry is left over: made by a process that is gone (this host, its id no longer
 * running, or this id in an earlier run), by this process and no longer in use, or older than the
 * grace whoever made it.
 */
export function isOrphanTemp(name: string, mtimeMs: number, now = Date.now()): boolean {
  if (!name.startsWith(TEMP_PREFIX)) return false;
  if (now - mtimeMs > TEMP_GRACE_MS) return true;
  const tag = TAGGED.exec(name);
  if (!tag || tag[1] !== THIS_PROCESS.host) return false;
  const pid = Number(tag[2]);
  if (pid === THIS_PROCESS.pid) return tag[3] !== THIS_PROCESS.run || !inUse.has(name.replace(/\.spill$/, ''));
  return !processExists(pid);
}

/** Removes the left-over temp files and directories in `dir` (./local.ts's store, or the S3 staging directory); returns how many went. */
export async function sweepOrphanTemps(dir: string, now = Date.now(), prefix = TEMP_PREFIX): Promise<number> {
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith(prefix)) continue;
    const info = await stat(join(dir, name)).catch(() => null);
    if (info && isOrphanTemp(name, info.mtimeMs, now)) {
      await rm(join(dir, name), { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}

/** Moves a staged file to `dest` (same file system: a rename; else copied, flushed, removed). */
export async function moveStaged(staged: StagedFile, dest: string): Promise<void> {
  try {
    await rename(staged.stagedPath, dest);
    releaseTemp(staged.stagedPath);
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
  releaseTemp(staged.stagedPath);
}

/** Removes left-over staged and spill files in `dir` (the S3 store's staging directory, shared with everything else in the OS temp directory); returns how many went. */
export function sweepStaged(dir: string, now = Date.now()): Promise<number> {
  return sweepOrphanTemps(dir, now, STAGE_PREFIX);
}
