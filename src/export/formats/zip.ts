/**
 * A minimal zip writer (deflate, no zip64) for formats that are several files (OBJ + MTL),
 * delivered as one download. The entries' time is fixed at 1980-01-01 so the same scene always
 * gives the same bytes (writers never read the clock). A big entry can be deflated piece by
 * piece as it is written (DeflatingEntry), so its text is never held whole.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

/** An entry already deflated: its raw deflate stream in pieces, CRC-32 and size of the data. */
export interface PackedEntry {
  name: string;
  packed: Uint8Array[];
  crc: number;
  size: number;
}

/** Deflates an entry's bytes as they come: each piece a sync-flushed deflate segment, one final empty block at the end. */
export class DeflatingEntry {
  private readonly packed: Uint8Array[] = [];
  private crc = 0;
  private size = 0;

  constructor(private readonly name: string) {}

  write(data: Uint8Array): void {
    if (!data.length) return;
    this.crc = crc32(data, this.crc) >>> 0;
    this.size += data.length;
    // Z_SYNC_FLUSH ends the segment byte-aligned and not final, so the next one can follow it
    this.packed.push(deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH }));
  }

  /** `data` in front of everything written so far (a header only known at the end). */
  prepend(data: Uint8Array): void {
    if (!data.length) return;
    this.crc = crc32Combine(crc32(data) >>> 0, this.crc, this.size);
    this.size += data.length;
    this.packed.unshift(deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH }));
  }

  finish(): PackedEntry {
    this.packed.push(FINAL_EMPTY_BLOCK);
    return { name: this.name, packed: this.packed, crc: this.crc, size: this.size };
  }
}

const ZEROS = new Uint8Array(1 << 16);

/**
 * CRC-32 of a ‖ b from crc(a), crc(b) and b's length. CRC-32 is affine in its start value and
 * data, so crc(b, start c) = crc(b, 0) ^ crc(zeros, c) ^ crc(zeros, 0) with as many zeros as b has bytes.
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  let x = crcA,
    k = 0;
  for (let n = lengthB; n > 0; n -= ZEROS.length) {
    const z = n >= ZEROS.length ? ZEROS : ZEROS.subarray(0, n);
    x = crc32(z, x);
    k = crc32(z, k);
  }
  return (x ^ k ^ crcB) >>> 0;
}

/** BFINAL = 1, fixed Huffman, end of block: closes a deflate stream whose segments were sync-flushed. */
const FINAL_EMPTY_BLOCK = Uint8Array.of(0x03, 0x00);

const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const UTF8_NAMES = 1 << 11;

function pack(e: ZipEntry | PackedEntry): PackedEntry {
  if ('packed' in e) return e;
  return { name: e.name, packed: [deflateRawSync(e.data)], crc: crc32(e.data) >>> 0, size: e.data.length };
}

export function zip(entries: (ZipEntry | PackedEntry)[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [],
    central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const e = pack(entry),
      name = enc.encode(e.name),
      packedLength = e.packed.reduce((n, p) => n + p.length, 0);
    if (e.size > 0xffffffff || packedLength > 0xffffffff) throw new Error('zip: over 4 GB needs zip64');
    const local = new Uint8Array(30 + name.length),
      l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 20, true);
    l.setUint16(6, UTF8_NAMES, true);
    l.setUint16(8, 8, true);
    l.setUint16(10, 0, true);
    l.setUint16(12, DOS_DATE, true);
    l.setUint32(14, e.crc, true);
    l.setUint32(18, packedLength, true);
    l.setUint32(22, e.size, true);
    l.setUint16(26, name.length, true);
    local.set(name, 30);
    const dir = new Uint8Array(46 + name.length),
      d = new DataView(dir.buffer);
    d.setUint32(0, 0x02014b50, true);
    d.setUint16(4, 20, true);
    d.setUint16(6, 20, true);
    d.setUint16(8, UTF8_NAMES, true);
    d.setUint16(10, 8, true);
    d.setUint16(12, 0, true);
    d.setUint16(14, DOS_DATE, true);
    d.setUint32(16, e.crc, true);
    d.setUint32(20, packedLength, true);
    d.setUint32(24, e.size, true);
    d.setUint16(28, name.length, true);
    d.setUint32(42, offset, true);
    dir.set(name, 46);
    parts.push(local, ...e.packed);
    central.push(dir);
    offset += local.length + packedLength;
    if (offset > 0xffffffff) throw new Error('zip: over 4 GB needs zip64');
  }
  const size = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22),
    v = new DataView(end.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, entries.length, true);
  v.setUint16(10, entries.length, true);
  v.setUint32(12, size, true);
  v.setUint32(16, offset, true);
  const out = new Uint8Array(offset + size + 22);
  let o = 0;
  for (const p of [...parts, ...central, end]) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
