/**
 * An in-memory ExportStore for tests of the export request flow that need to look at (or break)
 * the stored file without the real local/S3 stores.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { isStaged } from '../../../src/export/store/staged.ts';
import type { ExportBytes, ExportStore, StoredExport } from '../../../src/export/store/types.ts';

export class MemoryExportStore implements ExportStore {
  readonly files = new Map<string, { meta: StoredExport; bytes: Uint8Array }>();
  /** Set to make `put` fail (an export that fails must not be charged). */
  failPuts = false;
  /** Errors the next puts throw, one each (e.g. a full disk's ENOSPC). */
  readonly putErrors: Error[] = [];
  /** What `checkRoom` throws (a store that refuses before any work). */
  roomError: Error | null = null;
  /** How many files `makeRoom` says it removed; its calls are counted. */
  roomMade = 1;
  makeRoomCalls = 0;
  /** The owner of each stored file, by token. */
  readonly owners = new Map<string, string>();

  async checkRoom(): Promise<void> {
    if (this.roomError) throw this.roomError;
  }

  async makeRoom(): Promise<number> {
    this.makeRoomCalls++;
    return this.roomMade;
  }

  async put(name: string, body: ExportBytes, contentType: string, owner = ''): Promise<StoredExport> {
    // a staged file (an export thread wrote it to disk) is taken over: read, then removed
    const staged = isStaged(body) ? readFileSync(body.stagedPath) : null;
    if (isStaged(body)) rmSync(body.stagedPath, { force: true });
    if (this.failPuts) throw new Error('store unavailable');
    const injected = this.putErrors.shift();
    if (injected) throw injected;
    const bytes = staged ?? (body instanceof Uint8Array ? body.slice() : Buffer.concat(body as readonly Uint8Array[]));
    const token = randomBytes(16).toString('base64url');
    const meta: StoredExport = {
      token,
      name,
      contentType,
      size: bytes.length,
      etag: `"${createHash('sha256').update(bytes).digest('base64url')}"`,
      expiresAt: Date.now() + 3_600_000,
    };
    this.files.set(`${token}/${name}`, { meta, bytes });
    this.owners.set(token, owner);
    return meta;
  }

  async head(token: string, name: string): Promise<StoredExport | null> {
    return this.files.get(`${token}/${name}`)?.meta ?? null;
  }

  async read(token: string, name: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream | null> {
    const f = this.files.get(`${token}/${name}`);
    if (!f) return null;
    return Readable.from([Buffer.from(range ? f.bytes.subarray(range.start, range.end + 1) : f.bytes)]);
  }

  /** The bytes behind a download URL. */
  bytesOf(downloadUrl: string): Uint8Array | null {
    const m = /\/v1\/exports\/([^/]+)\/([^/?]+)$/.exec(new URL(downloadUrl).pathname);
    return m ? (this.files.get(`${m[1]}/${decodeURIComponent(m[2])}`)?.bytes ?? null) : null;
  }

  async sweep(): Promise<number> {
    return 0;
  }
  async close(): Promise<void> {}
}
