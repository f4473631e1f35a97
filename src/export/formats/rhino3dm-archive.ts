/**
 * The byte layer of a 3dm file (an OpenNURBS "binary archive", version 5 and later): little-endian
 * values, UTF-16 strings, UUIDs, and chunks. A chunk is a 4-byte typecode and an 8-byte value;
 * with the typecode's SHORT bit the value is the data, otherwise it is the length of what follows
 * — the chunk's own bytes, nested chunks, and, when the typecode has the CRC bit, a trailing
 * CRC-32 of the bytes written directly into the chunk (nested chunks, headers included, count
 * only in their own CRC: that is how OpenNURBS checks them on reading).
 *
 * `ArchiveWriter` lays chunks out in one growable buffer, patching each length when it closes;
 * `take` hands the bytes over (to memory or to the export's spill file) between top-level records,
 * so a stream of objects never holds more than one record's bytes here.
 */
import { crc32 as zlibCrc32, deflateSync } from 'node:zlib';
import { endianness } from 'node:os';
import { activeSpill, type FilePiece } from '../spill.ts';
import { TCODE } from './rhino3dm-codes.ts';
import { grownBytes } from '../../encode/grow-bytes.ts';

// 3dm files are little-endian and typed arrays are copied in as they lie in memory.
if (endianness() !== 'LE') throw new Error('the 3dm writer needs a little-endian host');

/** Typecode bits: the value is the data (no length, nothing follows); the chunk ends with a CRC-32. */
const SHORT = 0x80000000,
  CRC = 0x8000;

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/**
 * CRC-32 (zlib's, as OpenNURBS uses), continuing from `value`. Most runs of direct bytes are a few
 * bytes long, where a call into zlib costs more than the sum: those are summed here.
 */
export function crc32(bytes: Uint8Array, value = 0): number {
  if (bytes.length >= 256) return zlibCrc32(bytes, value);
  let c = ~value;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * Buffers shorter than this are stored, not deflated: zlib's set-up per buffer (~25 µs) outweighs
 * the bytes saved (double-precision grid coordinates deflate by ~10%). Dense 10 km² city, writer
 * alone: all stored 0.25 s, 40.0 MB; from 1 kB 0.36 s, 38.4 MB; every buffer over 128 bytes as
 * OpenNURBS does 0.9 s, 36.7 MB (rhino3dm, deflating at level 9: 2.5–3.6 s, 36.6 MB).
 */
export const DEFLATE_MIN = 1024;

interface OpenChunk {
  /** Offset of the chunk's typecode. */
  start: number;
  crc: boolean;
  /** CRC-32 of the chunk's direct bytes so far. */
  sum: number;
  /** Where the current run of direct bytes began (nested chunks interrupt it). */
  run: number;
}

export class ArchiveWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  private pos = 0;
  private readonly open: OpenChunk[] = [];

  /**
   * `deflateLevel`: compressed buffers (mesh arrays) as zlib streams at this level, or stored
   * as they are with 0 — OpenNURBS reads both.
   */
  constructor(readonly deflateLevel = 1) {}

  get length(): number {
    return this.pos;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    this.buf = grownBytes(this.buf, this.pos, n);
    this.view = new DataView(this.buf.buffer);
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.pos++] = v;
  }

  bool(v: boolean): void {
    this.u8(v ? 1 : 0);
  }

  i16(v: number): void {
    this.room(2);
    this.view.setInt16(this.pos, v, true);
    this.pos += 2;
  }

  i32(v: number): void {
    this.room(4);
    this.view.setInt32(this.pos, v, true);
    this.pos += 4;
  }

  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
  }

  i64(v: number): void {
    this.room(8);
    this.view.setBigInt64(this.pos, BigInt(v), true);
    this.pos += 8;
  }

  f32(v: number): void {
    this.room(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  f64(...values: number[]): void {
    this.room(8 * values.length);
    for (const v of values) {
      this.view.setFloat64(this.pos, v, true);
      this.pos += 8;
    }
  }

  /** Raw bytes (typed arrays as they lie in memory: little-endian). */
  bytes(b: ArrayBufferView): void {
    const src = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    this.room(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }

  /** An ON_wString: UTF-16 code units counted with the terminating NUL, which is written too; empty is a bare 0. */
  string(s: string): void {
    if (!s) {
      this.i32(0);
      return;
    }
    const n = s.length + 1;
    this.room(4 + 2 * n);
    this.view.setInt32(this.pos, n, true);
    let p = this.pos + 4;
    for (let i = 0; i < s.length; i++, p += 2) this.view.setUint16(p, s.charCodeAt(i), true);
    this.view.setUint16(p, 0, true);
    this.pos = p + 2;
  }

  /** An ON_Color: r, g, b, then 0 for opaque (OpenNURBS stores transparency, not alpha). */
  colour(r: number, g: number, b: number): void {
    this.u32(r | (g << 8) | (b << 16));
  }

  /** An ON_Xform, row by row: the identity. */
  identity(): void {
    this.f64(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
  }

  /** A packed chunk version (major, minor), the byte most class records start with. */
  version(major: number, minor: number): void {
    this.u8((major << 4) | minor);
  }

  /** Closes the innermost chunk's run of direct bytes (a nested chunk starts here). */
  private cutRun(): void {
    const c = this.open[this.open.length - 1];
    if (!c) return;
    if (c.crc && this.pos > c.run) c.sum = crc32(this.buf.subarray(c.run, this.pos), c.sum);
    c.run = this.pos;
  }

  begin(tcode: number): void {
    this.cutRun();
    const start = this.pos;
    this.u32(tcode);
    this.f64(0); // the length, patched by `end`
    this.open.push({ start, crc: (tcode & CRC) !== 0, sum: 0, run: this.pos });
  }

  /** A chunk opened with a version as two ints (OpenNURBS' BeginWrite3dmChunk(tcode, major, minor)). */
  beginVersioned(tcode: number, major: number, minor: number): void {
    this.begin(tcode);
    this.i32(major);
    this.i32(minor);
  }

  end(): void {
    const c = this.open.pop();
    if (!c) throw new Error('no chunk is open');
    if (c.crc) {
      if (this.pos > c.run) c.sum = crc32(this.buf.subarray(c.run, this.pos), c.sum);
      this.u32(c.sum);
    }
    this.view.setBigInt64(c.start + 4, BigInt(this.pos - c.start - 12), true);
    const parent = this.open[this.open.length - 1];
    if (parent) parent.run = this.pos;
  }

  /** A short chunk: the value is the data. */
  short(tcode: number, value: number): void {
    if (!(tcode & SHORT)) throw new Error(`0x${tcode.toString(16)} is not a short chunk`);
    this.cutRun();
    this.room(12);
    this.view.setUint32(this.pos, tcode, true);
    this.view.setBigInt64(this.pos + 4, BigInt(value), true);
    this.pos += 12;
    const parent = this.open[this.open.length - 1];
    if (parent) parent.run = this.pos;
  }

  /** A chunk holding only `write`'s bytes. */
  chunk(tcode: number, write: () => void): void {
    this.begin(tcode);
    write();
    this.end();
  }

  /**
   * An OpenNURBS compressed buffer: its size, the CRC-32 of its bytes, then the bytes stored
   * (method 0) or deflated as a zlib stream in an anonymous chunk (method 1; OpenNURBS itself
   * stores buffers up to 128 bytes).
   */
  compressed(data: ArrayBufferView): void {
    const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    this.u32(raw.length);
    if (!raw.length) return;
    this.u32(crc32(raw));
    if (this.deflateLevel > 0 && raw.length >= DEFLATE_MIN) {
      this.u8(1);
      this.begin(TCODE.ANONYMOUS_CHUNK);
      this.bytes(deflateSync(raw, { level: this.deflateLevel }));
      this.end();
    } else {
      this.u8(0);
      this.bytes(raw);
    }
  }

  /**
   * The bytes written so far, handed over (the writer starts empty again): spilled to the export's
   * spill file when one is active, else copied out. Only between top-level chunks.
   */
  take(): FilePiece {
    if (this.open.length) throw new Error('a chunk is still open');
    const out = this.buf.subarray(0, this.pos);
    this.pos = 0;
    const spill = activeSpill();
    return spill ? spill.write(out) : out.slice();
  }

  /** The bytes written so far as one copy (small records: the file's head and tail). */
  takeBytes(): Uint8Array {
    if (this.open.length) throw new Error('a chunk is still open');
    const out = this.buf.slice(0, this.pos);
    this.pos = 0;
    return out;
  }
}
