import { mkdir, open, readdir, readFile, rename, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertExportName, byteLengthOf, etagOf, isToken, newToken, pieces } from './entry.ts';
import { planRoom, roomFor, type Caps, type SizedEntry } from './eviction.ts';
import { claimTemp, discardStaged, isStaged, moveStaged, releaseTemp, sweepOrphanTemps, tempPathIn } from './staged.ts';
import { exportTooLarge, isNoSpace, isUnwritable, storageUnavailable } from './storage-errors.ts';
import type { ExportBytes, ExportStore, StoredExport } from './types.ts';

export interface LocalExportStoreOptions {
  /** One sub-directory per token: `<dir>/<token>/file` and its sidecar `<dir>/<token>/meta.json`. */
  dir: string;
  ttlMs: number;
  maxBytes: number;
  /** What one account's files may hold, bytes (default: maxBytes). */
  accountMaxBytes?: number;
  /** Free disk space below which no export starts, bytes (default 0). */
  minFreeBytes?: number;
  /** Injected by tests to move time forward. */
  now?: () => number;
  /** Free bytes on the directory's disk (default: statfs); tests stand in a full disk. */
  freeBytes?: () => Promise<number>;
}

interface Meta extends StoredExport {
  createdAt: number;
  /** The account whose export it is (absent in files stored before accounts were recorded). */
  owner?: string;
}

/** How long to tell a client to wait when the disk itself is the problem, s. */
const DISK_RETRY_S = 60;
const UNWRITABLE_RETRY_S = 300;

/**
 * Exports as files under the data directory. A put writes the file and its sidecar into a temp
 * directory and renames it to the token: a token directory is complete or absent, never half written.
 * Room is made per account (./eviction.ts): a new file evicts only expired files and its own
 * account's oldest, never another account's live link.
 */
export class LocalExportStore implements ExportStore {
  private readonly dir: string;
  private readonly ttlMs: number;
  private readonly caps: Caps;
  private readonly minFreeBytes: number;
  private readonly now: () => number;
  private readonly freeBytes: () => Promise<number>;
  /** Cap checks and renames run one at a time so two puts cannot both count the same free space. */
  private lock: Promise<unknown> = Promise.resolve();

  constructor(options: LocalExportStoreOptions) {
    this.dir = options.dir;
    this.ttlMs = options.ttlMs;
    this.caps = { maxBytes: options.maxBytes, accountMaxBytes: Math.min(options.maxBytes, options.accountMaxBytes ?? options.maxBytes) };
    this.minFreeBytes = options.minFreeBytes ?? 0;
    this.now = options.now ?? Date.now;
    this.freeBytes = options.freeBytes ?? (async () => diskFree(this.dir));
  }

  async open(): Promise<this> {
    await mkdir(this.dir, { recursive: true });
    return this;
  }

  async checkRoom(owner = ''): Promise<void> {
    await this.assertWritable();
    let free = await this.freeBytes();
    if (free < this.minFreeBytes) {
      await this.sweep();
      free = await this.freeBytes();
    }
    if (free < this.minFreeBytes) {
      throw storageUnavailable(
        `the disk holding the export files has ${mb(free)} free, less than the ${mb(this.minFreeBytes)} kept free`,
        { freeBytes: free, minFreeBytes: this.minFreeBytes },
        DISK_RETRY_S,
      );
    }
    const now = this.now();
    const entries = await this.entries();
    if (roomFor(entries, this.caps, owner, now) <= 0) throw this.full(planRoom(entries, this.caps, 1, owner, now).nextExpiry, now);
  }

  async makeRoom(owner = ''): Promise<number> {
    let removed = await this.sweep();
    removed += await this.serially(async () => {
      const mine = (await this.entries()).filter((e) => (e.owner ?? '') === owner).sort((a, b) => a.createdAt - b.createdAt);
      // room for the file being retried: twice the free space kept, at least 16 MB
      const target = Math.max(2 * this.minFreeBytes, 16 * 1048576);
      let gone = 0;
      for (const e of mine) {
        if ((await this.freeBytes()) >= target) break;
        await this.evict([e.token]);
        gone++;
      }
      return gone;
    });
    return removed;
  }

  async put(name: string, bytes: ExportBytes, contentType: string, owner = ''): Promise<StoredExport> {
    const staged = isStaged(bytes) ? bytes : null;
    const size = byteLengthOf(bytes);
    try {
      assertExportName(name);
      if (size > this.caps.accountMaxBytes) throw exportTooLarge(size, this.caps.accountMaxBytes);
    } catch (err) {
      if (staged) await discardStaged(staged);
      throw err;
    }
    const tmp = tempPathIn(this.dir);
    claimTemp(tmp);
    const createdAt = this.now();
    const meta: Meta = { token: newToken(), name, contentType, size, etag: etagOf(bytes), expiresAt: createdAt + this.ttlMs, createdAt, owner };
    try {
      await mkdir(tmp);
      // a staged file was flushed by the export thread: it only moves in
      if (staged) await moveStaged(staged, join(tmp, 'file'));
      else await writeDurably(join(tmp, 'file'), pieces(bytes));
      await writeDurably(join(tmp, 'meta.json'), JSON.stringify(meta));
      await this.serially(async () => {
        const now = this.now();
        const plan = planRoom(await this.entries(), this.caps, size, owner, now);
        if (!plan.fits) throw this.full(plan.nextExpiry, now); // a refused file evicts nothing
        await this.evict(plan.evict);
        await rename(tmp, join(this.dir, meta.token));
      });
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      if (staged) await discardStaged(staged);
      if (isUnwritable(err)) throw this.unwritable(err);
      throw err; // a full disk (ENOSPC) goes up as it is: the caller makes room and tries once more
    } finally {
      releaseTemp(tmp);
    }
    const { createdAt: _, owner: __, ...stored } = meta;
    return stored;
  }

  async head(token: string, name: string): Promise<StoredExport | null> {
    const meta = await this.meta(token);
    if (!meta || meta.name !== name || meta.expiresAt <= this.now()) return null;
    const { createdAt: _, owner: __, ...stored } = meta;
    return stored;
  }

  async read(token: string, name: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream | null> {
    if (!(await this.head(token, name))) return null;
    // Opened before streaming: a sweep that removes the file afterwards cannot cut this download.
    const handle = await open(join(this.dir, token, 'file')).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    return handle ? handle.createReadStream(range ? { start: range.start, end: range.end } : {}) : null;
  }

  /** Removes expired files, broken entries and temp files left over (./staged.ts); never a live link. */
  async sweep(now = this.now()): Promise<number> {
    return this.serially(async () => {
      // staged and spill files and put directories of processes that are gone (./staged.ts)
      let removed = await sweepOrphanTemps(this.dir, now);
      for (const e of await this.entries(true)) {
        if (e.meta && e.meta.expiresAt > now) continue;
        await this.evict([e.token]);
        removed++;
      }
      return removed;
    });
  }

  async close(): Promise<void> {
    await this.lock.catch(() => {});
  }

  /** Throws the 507 when a file cannot be created in the directory (read-only, permissions, full). */
  private async assertWritable(): Promise<void> {
    const probe = tempPathIn(this.dir);
    try {
      await (await open(probe, 'wx')).close();
      await rm(probe, { force: true });
    } catch (err) {
      await rm(probe, { force: true }).catch(() => {});
      if (isNoSpace(err)) throw storageUnavailable('the disk holding the export files is full', { errno: 'ENOSPC' }, DISK_RETRY_S);
      throw this.unwritable(err);
    }
  }

  private unwritable(err: unknown) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return storageUnavailable(`the export directory is not writable (${code})`, { errno: code }, UNWRITABLE_RETRY_S);
  }

  private full(nextExpiry: number | null, now: number) {
    const retryS = nextExpiry === null ? DISK_RETRY_S : (nextExpiry - now) / 1000;
    return storageUnavailable(
      "the export store is full of other accounts' unexpired files, which are never evicted",
      { maxBytes: this.caps.maxBytes, accountMaxBytes: this.caps.accountMaxBytes },
      retryS,
    );
  }

  private async meta(token: string): Promise<Meta | null> {
    if (!isToken(token)) return null;
    try {
      return JSON.parse(await readFile(join(this.dir, token, 'meta.json'), 'utf8')) as Meta;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' || err instanceof SyntaxError) return null;
      throw err;
    }
  }

  /** Every token directory with its sidecar (null when unreadable, which a sweep removes). */
  private async entries(): Promise<(SizedEntry & { meta: Meta })[]>;
  private async entries(withBroken: true): Promise<(SizedEntry & { meta: Meta | null })[]>;
  private async entries(withBroken = false): Promise<(SizedEntry & { meta: Meta | null })[]> {
    const out: (SizedEntry & { meta: Meta | null })[] = [];
    for (const token of await readdir(this.dir)) {
      if (!isToken(token)) continue;
      const meta = await this.meta(token);
      if (meta) out.push({ token, size: meta.size, createdAt: meta.createdAt, owner: meta.owner ?? '', expiresAt: meta.expiresAt, meta });
      else if (withBroken) out.push({ token, size: 0, createdAt: 0, meta: null });
    }
    return out;
  }

  private async evict(tokens: string[]): Promise<void> {
    for (const token of tokens) await rm(join(this.dir, token), { recursive: true, force: true });
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.lock.then(task, task);
    this.lock = run.catch(() => {});
    return run;
  }
}

/** Bytes an unprivileged process may still write on the disk holding `dir`. */
async function diskFree(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

function mb(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

/** Written (piece after piece) and flushed to disk before the rename makes it visible. */
async function writeDurably(path: string, data: readonly Uint8Array[] | string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await writeFile(handle, data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
