import { mkdir, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertExportName, byteLengthOf, etagOf, isToken, newToken, pieces } from './entry.ts';
import { pickEvictions, type SizedEntry } from './eviction.ts';
import { claimTemp, discardStaged, isStaged, moveStaged, releaseTemp, sweepOrphanTemps, tempPathIn } from './staged.ts';
import type { ExportBytes, ExportStore, StoredExport } from './types.ts';

export interface LocalExportStoreOptions {
  /** One sub-directory per token: `<dir>/<token>/file` and its sidecar `<dir>/<token>/meta.json`. */
  dir: string;
  ttlMs: number;
  maxBytes: number;
  /** Injected by tests to move time forward. */
  now?: () => number;
}

interface Meta extends StoredExport {
  createdAt: number;
}

/**
 * Exports as files under the data directory. A put writes the file and its sidecar into a temp
 * directory and renames it to the token: a token directory is complete or absent, never half written.
 */
export class LocalExportStore implements ExportStore {
  private readonly dir: string;
  private readonly ttlMs: number;
  private readonly maxBytes: number;
  private readonly now: () => number;
  /** Cap checks and renames run one at a time so two puts cannot both count the same free space. */
  private lock: Promise<unknown> = Promise.resolve();

  constructor(options: LocalExportStoreOptions) {
    this.dir = options.dir;
    this.ttlMs = options.ttlMs;
    this.maxBytes = options.maxBytes;
    this.now = options.now ?? Date.now;
  }

  async open(): Promise<this> {
    await mkdir(this.dir, { recursive: true });
    return this;
  }

  async put(name: string, bytes: ExportBytes, contentType: string): Promise<StoredExport> {
    const staged = isStaged(bytes) ? bytes : null;
    try {
      assertExportName(name);
    } catch (err) {
      if (staged) await discardStaged(staged);
      throw err;
    }
    const size = byteLengthOf(bytes);
    if (size > this.maxBytes) {
      if (staged) await discardStaged(staged);
      throw new Error(`export of ${size} bytes exceeds the store cap of ${this.maxBytes} bytes`);
    }
    const tmp = tempPathIn(this.dir);
    claimTemp(tmp);
    const createdAt = this.now();
    const meta: Meta = { token: newToken(), name, contentType, size, etag: etagOf(bytes), expiresAt: createdAt + this.ttlMs, createdAt };
    try {
      await mkdir(tmp);
      // a staged file was flushed by the export thread: it only moves in
      if (staged) await moveStaged(staged, join(tmp, 'file'));
      else await writeDurably(join(tmp, 'file'), pieces(bytes));
      await writeDurably(join(tmp, 'meta.json'), JSON.stringify(meta));
      await this.serially(async () => {
        await this.evict(pickEvictions(await this.entries(), this.maxBytes, size));
        await rename(tmp, join(this.dir, meta.token));
      });
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      if (staged) await discardStaged(staged);
      throw err;
    } finally {
      releaseTemp(tmp);
    }
    const { createdAt: _, ...stored } = meta;
    return stored;
  }

  async head(token: string, name: string): Promise<StoredExport | null> {
    const meta = await this.meta(token);
    if (!meta || meta.name !== name || meta.expiresAt <= this.now()) return null;
    const { createdAt: _, ...stored } = meta;
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

  async sweep(now = this.now()): Promise<number> {
    return this.serially(async () => {
      // staged and spill files and put directories of processes that are gone (./staged.ts)
      let removed = await sweepOrphanTemps(this.dir, now);
      const live: SizedEntry[] = [];
      for (const e of await this.entries(true)) {
        if (e.meta && e.meta.expiresAt > now) live.push(e);
        else {
          await this.evict([e.token]);
          removed++;
        }
      }
      const over = pickEvictions(live, this.maxBytes);
      await this.evict(over);
      return removed + over.length;
    });
  }

  async close(): Promise<void> {
    await this.lock.catch(() => {});
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
      if (meta) out.push({ token, size: meta.size, createdAt: meta.createdAt, meta });
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
