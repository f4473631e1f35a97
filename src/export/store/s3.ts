import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { S3StoreConfig } from './config.ts';
import { assertExportName, byteLengthOf, etagOf, isToken, newToken } from './entry.ts';
import { planRoom, roomFor, type Caps, type SizedEntry } from './eviction.ts';
import { discardStaged, isStaged } from './staged.ts';
import { exportTooLarge, storageUnavailable } from './storage-errors.ts';
import type { ExportBytes, ExportStore, StoredExport } from './types.ts';

export interface S3ExportStoreOptions extends S3StoreConfig {
  ttlMs: number;
  maxBytes: number;
  /** What one account's objects may hold, bytes (default: maxBytes). */
  accountMaxBytes?: number;
  now?: () => number;
}

/**
 * Exports as objects `<prefix><token>` in an S3-compatible bucket. The file name, ETag and expiry
 * ride in the object's user metadata (`x-amz-meta-*`), which `head` checks, so an expired object
 * is a 404 even before the sweep deletes it. A bucket lifecycle rule can back the sweep up.
 */
export class S3ExportStore implements ExportStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly ttlMs: number;
  private readonly caps: Caps;
  private readonly now: () => number;
  private lock: Promise<unknown> = Promise.resolve();
  /** Puts whose upload has not finished (not listed yet): they count against the caps and are never evicted. */
  private readonly uploading = new Map<string, number>();
  /** Each object's owner and expiry, from its metadata: a listing carries none, and an object never changes. */
  private readonly known = new Map<string, { owner: string; expiresAt: number }>();

  constructor(options: S3ExportStoreOptions) {
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: options.credentials,
      // Checksums only where S3 demands them: several S3-compatible servers reject the SDK's
      // default aws-chunked CRC32 uploads.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.ttlMs = options.ttlMs;
    this.caps = { maxBytes: options.maxBytes, accountMaxBytes: Math.min(options.maxBytes, options.accountMaxBytes ?? options.maxBytes) };
    this.now = options.now ?? Date.now;
  }

  /** Fails at start, with the bucket's name, when the bucket is unreachable or missing. */
  async open(): Promise<this> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      throw new Error(`export bucket ${this.bucket} is not reachable: ${(err as Error).name} ${(err as Error).message}`);
    }
    return this;
  }

  async put(name: string, bytes: ExportBytes, contentType: string, owner = ''): Promise<StoredExport> {
    try {
      return await this.upload(name, bytes, contentType, owner);
    } finally {
      if (isStaged(bytes)) await discardStaged(bytes); // uploaded or failed: the local copy goes
    }
  }

  /** A bucket has no disk to fill: only the caps can refuse. */
  async checkRoom(owner = ''): Promise<void> {
    const now = this.now();
    const entries = await this.entries();
    if (roomFor(entries, this.caps, owner, now) <= 0) throw this.full(planRoom(entries, this.caps, 1, owner, now).nextExpiry, now);
  }

  /** Only the local staging directory can fill up (open.ts sweeps it): nothing to remove here. */
  async makeRoom(): Promise<number> {
    return 0;
  }

  private async upload(name: string, bytes: ExportBytes, contentType: string, owner: string): Promise<StoredExport> {
    assertExportName(name);
    const size = byteLengthOf(bytes);
    if (size > this.caps.accountMaxBytes) throw exportTooLarge(size, this.caps.accountMaxBytes);
    const createdAt = this.now();
    const stored: StoredExport = { token: newToken(), name, contentType, size, etag: etagOf(bytes), expiresAt: createdAt + this.ttlMs };
    // Room is made one put at a time, counting uploads still in flight (not yet listed), so two
    // puts cannot both claim the same free space while their uploads run side by side.
    await this.serially(async () => {
      const plan = planRoom(await this.entries(), this.caps, size, owner, createdAt);
      if (!plan.fits) throw this.full(plan.nextExpiry, createdAt);
      await this.deleteTokens(plan.evict);
      this.uploading.set(stored.token, size);
    });
    try {
      // One PUT is atomic in S3: the object is visible whole or not at all.
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.prefix + stored.token,
          // pieces stream one after the other (a staged file from disk): never joined into a second copy of the file
          Body: isStaged(bytes) ? createReadStream(bytes.stagedPath) : bytes instanceof Uint8Array ? bytes : Readable.from(bytes),
          ContentType: contentType,
          ContentLength: size,
          Metadata: {
            // Metadata travels as ASCII headers: the name is percent-encoded.
            name: encodeURIComponent(name),
            etag: stored.etag.slice(1, -1),
            'expires-at': String(stored.expiresAt),
            'created-at': String(createdAt),
            owner: encodeURIComponent(owner),
          },
        }),
      );
      this.known.set(stored.token, { owner, expiresAt: stored.expiresAt });
    } finally {
      this.uploading.delete(stored.token);
    }
    return stored;
  }

  async head(token: string, name: string): Promise<StoredExport | null> {
    if (!isToken(token)) return null;
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + token }));
      const m = h.Metadata ?? {};
      const expiresAt = Number(m['expires-at']);
      if (!m.name || decodeURIComponent(m.name) !== name || !(expiresAt > this.now())) return null;
      return { token, name, contentType: h.ContentType ?? 'application/octet-stream', size: h.ContentLength ?? 0, etag: `"${m.etag}"`, expiresAt };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async read(token: string, name: string, range?: { start: number; end: number }): Promise<NodeJS.ReadableStream | null> {
    if (!(await this.head(token, name))) return null;
    try {
      const got = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.prefix + token,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = got.Body as Readable;
      if (!range) return body;
      // A server may ignore or widen the range (s3rver answers `bytes=0-0` with the whole object):
      // cut what came back to what was asked.
      const served = /^bytes (\d+)-(\d+)\//.exec(got.ContentRange ?? '');
      const from = served ? Number(served[1]) : 0;
      const to = served ? Number(served[2]) : (got.ContentLength ?? 0) - 1;
      if (from === range.start && to === range.end) return body;
      if (from > range.start || to < range.end) {
        body.destroy();
        throw new Error(`S3 served bytes ${from}-${to} for ${range.start}-${range.end}`);
      }
      return Readable.from(slice(body, range.start - from, range.end - range.start + 1));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /**
   * Listing carries no user metadata, so an object counts as expired when it was last written
   * more than the lifetime ago; `head` still honours each object's own `expires-at`.
   */
  async sweep(now = this.now()): Promise<number> {
    return this.serially(async () => {
      const expired = (await this.list()).filter((e) => e.createdAt + this.ttlMs <= now).map((e) => e.token);
      await this.deleteTokens(expired);
      return expired.length;
    });
  }

  async close(): Promise<void> {
    await this.lock.catch(() => {});
    this.client.destroy();
  }

  private async list(): Promise<SizedEntry[]> {
    const out: SizedEntry[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken }));
      for (const o of page.Contents ?? []) {
        const token = (o.Key ?? '').slice(this.prefix.length);
        if (isToken(token)) out.push({ token, size: o.Size ?? 0, createdAt: o.LastModified?.getTime() ?? 0 });
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return out;
  }

  /** The listed objects with their owners and expiries (one HEAD per object not seen before), and the uploads in flight. */
  private async entries(): Promise<SizedEntry[]> {
    const out: SizedEntry[] = [];
    for (const e of await this.list()) {
      let known = this.known.get(e.token);
      if (!known) {
        const m = (await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.prefix + e.token })).catch(() => null))?.Metadata ?? {};
        known = { owner: decodeURIComponent(m.owner ?? ''), expiresAt: Number(m['expires-at']) || e.createdAt + this.ttlMs };
        this.known.set(e.token, known);
      }
      out.push({ ...e, ...known });
    }
    // in flight: counted, never evicted (an owner no put has)
    for (const [token, size] of this.uploading) out.push({ token, size, createdAt: Infinity, owner: '\u0000uploading' });
    return out;
  }

  private full(nextExpiry: number | null, now: number) {
    return storageUnavailable(
      "the export store is full of other accounts' unexpired files, which are never evicted",
      { maxBytes: this.caps.maxBytes, accountMaxBytes: this.caps.accountMaxBytes },
      nextExpiry === null ? 60 : (nextExpiry - now) / 1000,
    );
  }

  /** One DELETE per object: DeleteObjects needs Content-MD5, which not every S3-compatible server takes. */
  private async deleteTokens(tokens: string[]): Promise<void> {
    for (const token of tokens) {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + token }));
      this.known.delete(token);
    }
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.lock.then(task, task);
    this.lock = run.catch(() => {});
    return run;
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The `length` bytes of `source` after the first `skip`; stops reading (and closes it) once done. */
async function* slice(source: Readable, skip: number, length: number): AsyncGenerator<Buffer> {
  for await (const chunk of source as AsyncIterable<Buffer>) {
    const part = chunk.subarray(Math.min(skip, chunk.length), Math.min(chunk.length, skip + length));
    skip = Math.max(0, skip - chunk.length);
    if (part.length > 0) {
      length -= part.length;
      yield part;
    }
    if (length <= 0) break;
  }
}
