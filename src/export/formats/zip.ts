/**
 * A minimal zip writer (deflate, no zip64) for formats that are several files (OBJ + MTL),
 * delivered as one download. The entries' time is fixed at 1980-01-01 so the same scene always
 * gives the same bytes (writers never read the clock).
 */
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
const UTF8_NAMES = 1 << 11;

export function zip(entries: ZipEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [], central: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name), packed = deflateRawSync(e.data), crc = crc32(e.data) >>> 0;
    const local = new Uint8Array(30 + name.length), l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true); l.setUint16(4, 20, true); l.setUint16(6, UTF8_NAMES, true);
    l.setUint16(8, 8, true); l.setUint16(10, 0, true); l.setUint16(12, DOS_DATE, true);
    l.setUint32(14, crc, true); l.setUint32(18, packed.length, true); l.setUint32(22, e.data.length, true);
    l.setUint16(26, name.length, true); local.set(name, 30);
    const dir = new Uint8Array(46 + name.length), d = new DataView(dir.buffer);
    d.setUint32(0, 0x02014b50, true); d.setUint16(4, 20, true); d.setUint16(6, 20, true); d.setUint16(8, UTF8_NAMES, true);
    d.setUint16(10, 8, true); d.setUint16(12, 0, true); d.setUint16(14, DOS_DATE, true);
    d.setUint32(16, crc, true); d.setUint32(20, packed.length, true); d.setUint32(24, e.data.length, true);
    d.setUint16(28, name.length, true); d.setUint32(42, offset, true); dir.set(name, 46);
    parts.push(local, packed); central.push(dir);
    offset += local.length + packed.length;
    if (offset > 0xffffffff) throw new Error('zip: over 4 GB needs zip64');
  }
  const size = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22), v = new DataView(end.buffer);
  v.setUint32(0, 0x06054b50, true); v.setUint16(8, entries.length, true); v.setUint16(10, entries.length, true);
  v.setUint32(12, size, true); v.setUint32(16, offset, true);
  const out = new Uint8Array(offset + size + 22);
  let o = 0;
  for (const p of [...parts, ...central, end]) { out.set(p, o); o += p.length; }
  return out;
}
