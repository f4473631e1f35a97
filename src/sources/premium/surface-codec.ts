/**
 * Compact binary geometry of a premium building. Both blobs start with a float64 origin (lon, lat
 * degrees) and store every point as int32 offsets from it: 1e-9 degrees (about 0.1 mm) in lon and
 * lat, and z as absolute height in 0.1 mm, so a stored corner is within 0.1 mm of the reprojected
 * one and a building takes 12 bytes per point.
 *
 *   surfaces:  f64 lon0, f64 lat0, u32 count, per surface (u32 class | part << 8, u32 ringCount, u32 points per ring…), i32 (dlon, dlat, z)…
 *   footprint: f64 lon0, f64 lat0, u32 count, per polygon (u32 ringCount, u32 points per ring…), i32 (dlon, dlat)…
 */

/** A surface in lon/lat/z: rings as flat lon, lat, z (first outer, then holes). */
export interface StoredSurface {
  cls: number;
  /** Index of the part (in the building's parts list) it belongs to. */
  part: number;
  rings: number[][];
}

/** Polygons as rings of flat lon, lat (first outer, then holes). */
export type LonLatPolygons = number[][][];

const DEG = 1e9;
const HEIGHT = 1e4;

function int32(value: number, what: string): number {
  const v = Math.round(value);
  if (!(v >= -2147483648 && v <= 2147483647)) throw new RangeError(`${what} out of range for the store: ${value}`);
  return v;
}

function write(origin: readonly [number, number], header: number[], coords: number[], dims: 2 | 3): Uint8Array {
  const headerBytes = 16 + 4 * header.length;
  const bytes = new Uint8Array(headerBytes + 4 * coords.length);
  const view = new DataView(bytes.buffer);
  view.setFloat64(0, origin[0], true);
  view.setFloat64(8, origin[1], true);
  header.forEach((w, i) => view.setUint32(16 + 4 * i, w, true));
  for (let i = 0; i < coords.length; i += dims) {
    const o = headerBytes + 4 * i;
    view.setInt32(o, int32((coords[i] - origin[0]) * DEG, 'longitude offset'), true);
    view.setInt32(o + 4, int32((coords[i + 1] - origin[1]) * DEG, 'latitude offset'), true);
    if (dims === 3) view.setInt32(o + 8, int32(coords[i + 2] * HEIGHT, 'height'), true);
  }
  return bytes;
}

export function encodeSurfaces(origin: readonly [number, number], surfaces: readonly StoredSurface[]): Uint8Array {
  const header = [surfaces.length];
  const coords: number[] = [];
  for (const s of surfaces) {
    header.push((s.cls & 0xff) | (s.part << 8), s.rings.length);
    for (const ring of s.rings) {
      header.push(ring.length / 3);
      for (const v of ring) coords.push(v);
    }
  }
  return write(origin, header, coords, 3);
}

export function encodeFootprint(origin: readonly [number, number], polygons: LonLatPolygons): Uint8Array {
  const header = [polygons.length];
  const coords: number[] = [];
  for (const polygon of polygons) {
    header.push(polygon.length);
    for (const ring of polygon) {
      header.push(ring.length / 2);
      for (const v of ring) coords.push(v);
    }
  }
  return write(origin, header, coords, 2);
}

class Reader {
  private readonly view: DataView;
  private at = 16;
  readonly lon0: number;
  readonly lat0: number;
  constructor(bytes: Uint8Array) {
    if (bytes.byteLength < 20) throw new Error('corrupt premium geometry blob: too short');
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.lon0 = this.view.getFloat64(0, true);
    this.lat0 = this.view.getFloat64(8, true);
  }
  u32(): number {
    if (this.at + 4 > this.view.byteLength) throw new Error('corrupt premium geometry blob: too short');
    const v = this.view.getUint32(this.at, true);
    this.at += 4;
    return v;
  }
  /** Header words are all read before the coordinates: this reads points from `coordAt`. */
  points(coordAt: number, count: number, dims: 2 | 3): number[] {
    if (coordAt + 4 * dims * count > this.view.byteLength) throw new Error('corrupt premium geometry blob: too short');
    const out = new Array<number>(count * dims);
    for (let i = 0; i < count; i++) {
      const o = coordAt + 4 * dims * i;
      out[dims * i] = this.lon0 + this.view.getInt32(o, true) / DEG;
      out[dims * i + 1] = this.lat0 + this.view.getInt32(o + 4, true) / DEG;
      if (dims === 3) out[3 * i + 2] = this.view.getInt32(o + 8, true) / HEIGHT;
    }
    return out;
  }
  get offset(): number {
    return this.at;
  }
}

export function decodeSurfaces(bytes: Uint8Array): StoredSurface[] {
  const r = new Reader(bytes);
  const shapes: { word: number; sizes: number[] }[] = [];
  const count = r.u32();
  for (let s = 0; s < count; s++) {
    const word = r.u32();
    const ringCount = r.u32();
    const sizes: number[] = [];
    for (let k = 0; k < ringCount; k++) sizes.push(r.u32());
    shapes.push({ word, sizes });
  }
  let at = r.offset;
  return shapes.map(({ word, sizes }) => ({
    cls: word & 0xff,
    part: word >>> 8,
    rings: sizes.map((n) => {
      const ring = r.points(at, n, 3);
      at += 12 * n;
      return ring;
    }),
  }));
}

export function decodeFootprint(bytes: Uint8Array): LonLatPolygons {
  const r = new Reader(bytes);
  const shapes: number[][] = [];
  const count = r.u32();
  for (let p = 0; p < count; p++) {
    const ringCount = r.u32();
    const sizes: number[] = [];
    for (let k = 0; k < ringCount; k++) sizes.push(r.u32());
    shapes.push(sizes);
  }
  let at = r.offset;
  return shapes.map((sizes) =>
    sizes.map((n) => {
      const ring = r.points(at, n, 2);
      at += 8 * n;
      return ring;
    }),
  );
}
