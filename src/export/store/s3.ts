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
import { pickEvictions, type SizedEntry } from './eviction.ts';
import { discardStaged, isStaged } from './staged.ts';
import type { ExportBytes, ExportStore, StoredExport } from './types.ts';

export interface S3ExportStoreOptions extends S3StoreConfig {
  ttlMs: number;
  maxBytes: number;
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
  private readonly maxBytes: number;
  private readonly now: () => number;
  private lock: Promise<unknown> = Promise.resolve();
  /** Bytes of puts whose upload has not finished. */
  private uploading = 0;

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
    this.maxBytes = options.maxBytes;
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

  async put(name: string, bytes: ExportBytes, contentType: string): Promise<StoredExport> {
    try {
      return await this.upload(name, bytes, contentType);
    } finally {
      if (isStaged(bytes)) await discardStaged(bytes); // uploaded or failed: the local copy goes
    }
  }

  private async upload(name: string, bytes: ExportBytes, contentType: string): Promise<StoredExport> {
    assertExportName(name);
    const size = byteLengthOf(bytes);
    if (size > this.maxBytes) throw new Error(`export of ${size} bytes exceeds the store cap of ${this.maxBytes} bytes`);
    const createdAt = this.now();
    const stored: StoredExport = { token: newToken(), name, contentType, size, etag: etagOf(bytes), expiresAt: createdAt + this.ttlMs };
    // Room is made one put at a time, counting uploads still in flight (not yet listed), so two
    // puts cannot both claim the same free space while their uploads run side by side.
    await this.serially(async () => {
      await this.deleteTokens(pickEvictions(await this.list(), this.maxBytes, size + this.uploading));
      this.uploading += size;
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
          },
        }),
      );
    } finally {
      this.uploading -= size;
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
      const all = await this.list();
      const expired = all.filter((e) => e.createdAt + this.ttlMs <= now).map((e) => e.token);
      const gone = new Set(expired);
      const over = pickEvictions(
        all.filter((e) => !gone.has(e.token)),
        this.maxBytes,
      );
      await this.deleteTokens([...expired, ...over]);
      return expired.length + over.length;
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

  /** One DELETE per object: DeleteObjects needs Content-MD5, which not every S3-compatible server takes. */
  private async deleteTokens(tokens: string[]): Promise<void> {
    for (const token of tokens) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + token }));
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
