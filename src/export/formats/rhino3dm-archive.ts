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
import { crc32, deflateSync } from 'node:zlib';
import { endianness } from 'node:os';
import { activeSpill, type FilePiece } from '../spill.ts';

// 3dm files are little-endian and typed arrays are copied in as they lie in memory.
if (endianness() !== 'LE') throw new Error('the 3dm writer needs a little-endian host');

/** Typecodes written (OpenNURBS opennurbs_3dm.h). */
export const TCODE = {
  COMMENTBLOCK: 0x00000001,
  ENDOFFILE: 0x00007fff,
  ENDOFTABLE: 0xffffffff,
  ANONYMOUS_CHUNK: 0x40008000,
  PROPERTIES_TABLE: 0x10000014,
  PROPERTIES_OPENNURBS_VERSION: 0xa0000026,
  PROPERTIES_APPLICATION: 0x20008024,
  SETTINGS_TABLE: 0x10000015,
  SETTINGS_UNITSANDTOLS: 0x20008031,
  SETTINGS_ATTRIBUTES: 0x20008134,
  BITMAP_TABLE: 0x10000016,
  TEXTURE_MAPPING_TABLE: 0x10000025,
  MATERIAL_TABLE: 0x10000010,
  LINETYPE_TABLE: 0x10000023,
  LAYER_TABLE: 0x10000011,
  LAYER_RECORD: 0x20008050,
  GROUP_TABLE: 0x10000018,
  FONT_TABLE: 0x10000019,
  DIMSTYLE_TABLE: 0x10000020,
  LIGHT_TABLE: 0x10000012,
  HATCHPATTERN_TABLE: 0x10000022,
  INSTANCE_DEFINITION_TABLE: 0x10000021,
  OBJECT_TABLE: 0x10000013,
  OBJECT_RECORD: 0x20008070,
  OBJECT_RECORD_TYPE: 0x82000071,
  OBJECT_RECORD_ATTRIBUTES: 0x02008072,
  OBJECT_RECORD_ATTRIBUTES_USERDATA: 0x02000073,
  OBJECT_RECORD_END: 0x8200007f,
  HISTORYRECORD_TABLE: 0x10000026,
  USER_TABLE: 0x10000017,
  USER_TABLE_UUID: 0x20008080,
  USER_TABLE_RECORD_HEADER: 0x20008082,
  USER_RECORD: 0x20000081,
  OPENNURBS_CLASS: 0x00027ffa,
  OPENNURBS_CLASS_UUID: 0x0002fffb,
  OPENNURBS_CLASS_DATA: 0x0002fffc,
  OPENNURBS_CLASS_USERDATA: 0x00027ffd,
  OPENNURBS_CLASS_USERDATA_HEADER: 0x0002fff9,
  OPENNURBS_CLASS_END: 0x80027fff,
} as const;

const SHORT = 0x80000000, CRC = 0x8000;

/** Archive version written: 70, a Rhino 7 file (Rhino 7 and 8 open it; Rhino reads its own and older versions only). */
export const ARCHIVE_VERSION = 70;

/**
 * The OpenNURBS version stamped in the file (properties table, user data headers): the one
 * rhino3dm 8 stamps in the version-70 files it writes. Readers gate old-file workarounds on it,
 * so it must be recent.
 */
export const OPENNURBS_VERSION = 2425133316;

/** ON_UNSET_VALUE: OpenNURBS' "no value" double (unset intervals and bounding boxes). */
export const UNSET_VALUE = -1.23432101234321e308;

/** A UUID in the archive's byte order (Data1, Data2, Data3 little-endian, then Data4 as is), from its text form. */
export function uuidBytes(text: string): Uint8Array {
  const h = text.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(h)) throw new Error(`not a UUID: ${text}`);
  const b = Uint8Array.from(h.match(/../g)!, (x) => parseInt(x, 16));
  return Uint8Array.of(b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], ...b.subarray(8));
}

export const NIL_UUID = new Uint8Array(16);

/** Fresh random (version 4) UUIDs, drawn 4096 at a time: every object and layer needs its own id. */
export class UuidSource {
  private pool = new Uint8Array(0);
  private at = 0;

  next(): Uint8Array {
    if (this.at === this.pool.length) {
      this.pool = crypto.getRandomValues(new Uint8Array(16 * 4096));
      this.at = 0;
    }
    const id = this.pool.subarray(this.at, this.at + 16);
    this.at += 16;
    id[7] = (id[7] & 0x0f) | 0x40; // version 4 (Data3 is stored little-endian)
    id[8] = (id[8] & 0x3f) | 0x80; // RFC 4122 variant
    return id;
  }
}

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
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
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
    if (!s) return this.i32(0);
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
    if (this.deflateLevel > 0 && raw.length > 128) {
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
