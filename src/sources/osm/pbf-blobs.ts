/**
 * Reads an .osm.pbf file as a stream of blobs (fileformat.proto): each blob is a 4-byte big-endian
 * BlobHeader length, a BlobHeader, then a Blob holding one HeaderBlock or PrimitiveBlock, raw or
 * zlib-compressed. Only one blob is held in memory at a time, so memory does not grow with the file.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import Pbf from 'pbf';

export interface FileBlock {
  /** BlobHeader.type: 'OSMHeader' or 'OSMData'; other types are passed through for callers to skip. */
  type: string;
  /** The decompressed payload: a HeaderBlock or PrimitiveBlock message. */
  data: Uint8Array;
  /** Bytes of the file consumed up to the end of this blob (for progress). */
  bytesRead: number;
  /** Size of the whole file in bytes. */
  totalBytes: number;
}

/** Limits from the OSM PBF spec; larger values mean a corrupt or non-PBF file. */
const MAX_BLOB_HEADER_BYTES = 64 * 1024;
const MAX_BLOB_BYTES = 32 * 1024 * 1024;

/** Pulls exact byte counts out of a chunked stream without concatenating more than one blob. */
class ExactReader {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;
  private ended = false;
  private readonly source: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.source = source[Symbol.asyncIterator]();
  }

  /** Exactly `n` bytes; null at a clean end of the stream; throws when the stream ends mid-way. */
  async read(n: number): Promise<Buffer | null> {
    while (this.buffered < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else {
        this.chunks.push(next.value);
        this.buffered += next.value.length;
      }
    }
    if (this.buffered < n) {
      if (this.buffered === 0) return null;
      throw new Error(`truncated PBF file: wanted ${n} bytes, ${this.buffered} left`);
    }
    this.buffered -= n;
    const first = this.chunks[0];
    if (first.length >= n) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    let offset = 0;
    while (offset < n) {
      const chunk = this.chunks[0];
      const take = Math.min(chunk.length, n - offset);
      chunk.copy(out, offset, 0, take);
      offset += take;
      if (take === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(take);
    }
    return out;
  }

  /** Stops the underlying stream early (closes the file). */
  async close(): Promise<void> {
    await this.source.return?.();
  }
}

interface BlobHeader {
  type: string;
  datasize: number;
}

function readBlobHeaderField(tag: number, header: BlobHeader, pbf: Pbf): void {
  if (tag === 1) header.type = pbf.readString();
  else if (tag === 3) header.datasize = pbf.readVarint();
  // tag 2 (indexdata) is skipped.
}

interface Blob {
  raw: Uint8Array | null;
  rawSize: number;
  zlib: Uint8Array | null;
  /** Field number of a compression we do not support (lzma, bzip2, lz4, zstd), 0 if none. */
  unsupported: number;
}

const COMPRESSION_NAMES: Record<number, string> = { 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' };

function readBlobField(tag: number, blob: Blob, pbf: Pbf): void {
  if (tag === 1) blob.raw = pbf.readBytes();
  else if (tag === 2) blob.rawSize = pbf.readVarint();
  else if (tag === 3) blob.zlib = pbf.readBytes();
  else if (tag in COMPRESSION_NAMES) blob.unsupported = tag;
}

/** Decodes a Blob message into its uncompressed payload. */
export function decodeBlob(bytes: Uint8Array): Uint8Array {
  const blob = new Pbf(bytes).readFields<Blob>(readBlobField, { raw: null, rawSize: 0, zlib: null, unsupported: 0 });
  if (blob.raw) return blob.raw;
  if (blob.zlib) {
    const data = inflateSync(blob.zlib);
    if (blob.rawSize && data.length !== blob.rawSize) {
      throw new Error(`corrupt PBF blob: inflated ${data.length} bytes, header says ${blob.rawSize}`);
    }
    return data;
  }
  if (blob.unsupported) {
    throw new Error(`unsupported PBF blob compression: ${COMPRESSION_NAMES[blob.unsupported]} (re-encode with zlib, e.g. osmium cat)`);
  }
  return new Uint8Array(0);
}

/** Yields the blobs of an .osm.pbf file in file order, decompressed. */
export async function* readPbfBlocks(path: string): AsyncGenerator<FileBlock> {
  const totalBytes = (await stat(path)).size;
  const reader = new ExactReader(createReadStream(path, { highWaterMark: 1 << 20 }));
  let bytesRead = 0;
  try {
    for (;;) {
      const lengthBytes = await reader.read(4);
      if (!lengthBytes) return;
      const headerLength = lengthBytes.readUInt32BE(0);
      if (headerLength > MAX_BLOB_HEADER_BYTES) throw new Error(`not an OSM PBF file (blob header of ${headerLength} bytes at offset ${bytesRead})`);
      const headerBytes = await reader.read(headerLength);
      if (!headerBytes) throw new Error('truncated PBF file: missing blob header');
      const header = new Pbf(headerBytes).readFields<BlobHeader>(readBlobHeaderField, { type: '', datasize: 0 });
      if (header.datasize > MAX_BLOB_BYTES) throw new Error(`corrupt PBF file: blob of ${header.datasize} bytes at offset ${bytesRead}`);
      const blobBytes = header.datasize > 0 ? await reader.read(header.datasize) : Buffer.alloc(0);
      if (!blobBytes) throw new Error('truncated PBF file: missing blob');
      bytesRead += 4 + headerLength + header.datasize;
      yield { type: header.type, data: decodeBlob(blobBytes), bytesRead, totalBytes };
    }
  } finally {
    await reader.close();
  }
}
