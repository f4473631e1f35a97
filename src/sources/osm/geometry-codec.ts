/**
 * Compact binary geometry for the store: little-endian Int32 words, coordinates in 1e-7 degrees
 * (the precision OSM itself stores), so a decoded coordinate is within 0.5e-7 degrees of the input.
 *
 *   point: [1, lon, lat]
 *   line:  [2, n, lon0, lat0, …]
 *   area:  [3, polygonCount, (ringCount, (pointCount)…)…, lon0, lat0, …]   rings without closing duplicate
 */

export type Geometry = { kind: 'point'; point: [number, number] } | { kind: 'line'; line: number[] } | { kind: 'area'; polygons: number[][][] };

/** [minLon7, minLat7, maxLon7, maxLat7] of the quantized coordinates. */
export type BBox7 = [number, number, number, number];

export interface EncodedGeometry {
  bytes: Uint8Array;
  bbox7: BBox7;
}

const KIND_CODES = { point: 1, line: 2, area: 3 } as const;

function toE7(degrees: number): number {
  const v = Math.round(degrees * 1e7) + 0; // + 0 turns -0 into 0
  if (!Number.isFinite(v) || v > 2147483647 || v < -2147483648) throw new RangeError(`coordinate out of range: ${degrees}`);
  return v;
}

/** Encodes a geometry; also returns the bbox of the stored coordinates (what the R*Tree indexes). */
export function encodeGeometry(geometry: Geometry): EncodedGeometry {
  const words: number[] = [KIND_CODES[geometry.kind]];
  let coords: number[];
  if (geometry.kind === 'point') coords = geometry.point;
  else if (geometry.kind === 'line') {
    words.push(geometry.line.length / 2);
    coords = geometry.line;
  } else {
    words.push(geometry.polygons.length);
    for (const polygon of geometry.polygons) {
      words.push(polygon.length);
      for (const ring of polygon) words.push(ring.length / 2);
    }
    coords = geometry.polygons.flat(2);
  }
  if (coords.length < 2 || coords.length % 2 !== 0) throw new Error(`cannot encode ${geometry.kind} with ${coords.length} coordinate values`);
  const bbox7: BBox7 = [Infinity, Infinity, -Infinity, -Infinity];
  const out = new Int32Array(words.length + coords.length);
  out.set(words);
  for (let i = 0, o = words.length; i < coords.length; i += 2, o += 2) {
    const lon = toE7(coords[i]),
      lat = toE7(coords[i + 1]);
    out[o] = lon;
    out[o + 1] = lat;
    if (lon < bbox7[0]) bbox7[0] = lon;
    if (lat < bbox7[1]) bbox7[1] = lat;
    if (lon > bbox7[2]) bbox7[2] = lon;
    if (lat > bbox7[3]) bbox7[3] = lat;
  }
  return { bytes: littleEndianBytes(out), bbox7 };
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function littleEndianBytes(words: Int32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
  const view = new DataView(new ArrayBuffer(words.length * 4));
  for (let i = 0; i < words.length; i++) view.setInt32(i * 4, words[i], true);
  return new Uint8Array(view.buffer);
}

/** Int32 words of a blob: a view when aligned on a little-endian machine, else a copy. */
function wordsOf(bytes: Uint8Array): Int32Array {
  const count = bytes.byteLength >> 2;
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset, count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const words = new Int32Array(count);
  for (let i = 0; i < count; i++) words[i] = view.getInt32(4 * i, true);
  return words;
}

/** Decodes a blob written by encodeGeometry (SQLite hands back Buffers at any byte offset). */
export function decodeGeometry(bytes: Uint8Array): Geometry {
  const words = wordsOf(bytes);
  let w = 0;
  const next = (): number => {
    if (w >= words.length) throw new Error('corrupt geometry blob: too short');
    return words[w++];
  };
  const readCoords = (count: number): number[] => {
    if (w + count * 2 > words.length) throw new Error('corrupt geometry blob: too short');
    const out = new Array<number>(count * 2);
    for (let i = 0; i < count * 2; i++) out[i] = words[w + i] / 1e7;
    w += count * 2;
    return out;
  };
  const kind = next();
  if (kind === KIND_CODES.point) return { kind: 'point', point: readCoords(1) as [number, number] };
  if (kind === KIND_CODES.line) return { kind: 'line', line: readCoords(next()) };
  if (kind !== KIND_CODES.area) throw new Error(`corrupt geometry blob: kind ${kind}`);
  const polygonCount = next();
  const ringSizes: number[][] = [];
  for (let p = 0; p < polygonCount; p++) {
    const ringCount = next();
    const sizes: number[] = [];
    for (let r = 0; r < ringCount; r++) sizes.push(next());
    ringSizes.push(sizes);
  }
  return { kind: 'area', polygons: ringSizes.map((sizes) => sizes.map((n) => readCoords(n))) };
}
