import { projectFlat, type LocalFrame } from '../../frame/local-frame.ts';
import type { DeckElevation, SurfaceArea, SurfaceKind } from '../../geometry/surfaces/types.ts';
import type { Footprint } from '../../geometry/types.ts';
import type { LonLatBBox } from '../../osm-model/feature.ts';

/**
 * The stored form of a ground cell (ground-cells.ts): its resolved pieces with every vertex in
 * lon/lat degrees (float64: a nanometre), so any request frame can take them. Layout: a uint32
 * (little-endian) length, a JSON header of that many bytes (per piece its kind, descriptor,
 * deck, ring sizes and lon/lat box), zero padding to 8 bytes, then every ring's [lon, lat, …] in
 * order as float64.
 */

interface PieceHeader {
  kind: SurfaceKind;
  priority: number;
  descriptor: Record<string, unknown>;
  size?: number;
  disjointSet?: string;
  deck?: DeckElevation;
  /** Per footprint: the vertex count of its outer ring, then of each hole. */
  rings: number[][];
  /** lon/lat box [minLon, minLat, maxLon, maxLat]. */
  box: [number, number, number, number];
}

interface CellHeader {
  seaUndecided: boolean;
  pieces: PieceHeader[];
}

/** A decoded cell: pieces still in lon/lat. */
export interface StoredGroundCell {
  seaUndecided: boolean;
  pieces: readonly PieceHeader[];
  /** Every ring's vertices in lon/lat, in header order. */
  coords: Float64Array;
  /** Offset (in numbers) of each piece's first vertex in `coords`. */
  offsets: readonly number[];
}

/** Encodes pieces built in `frame`. */
export function encodeGroundCell(pieces: readonly SurfaceArea[], frame: LocalFrame, seaUndecided: boolean): Uint8Array {
  const coords: number[] = [];
  const headers: PieceHeader[] = [];
  for (const p of pieces) {
    let minLon = Infinity,
      minLat = Infinity,
      maxLon = -Infinity,
      maxLat = -Infinity;
    const rings: number[][] = [];
    for (const fp of p.footprints) {
      const sizes: number[] = [];
      for (const ring of [fp.outer, ...fp.holes]) {
        sizes.push(ring.length / 2);
        for (let k = 0; k < ring.length; k += 2) {
          const [lon, lat] = frame.toLonLat(ring[k], ring[k + 1]);
          coords.push(lon, lat);
          if (lon < minLon) minLon = lon;
          if (lon > maxLon) maxLon = lon;
          if (lat < minLat) minLat = lat;
          if (lat > maxLat) maxLat = lat;
        }
      }
      rings.push(sizes);
    }
    const h: PieceHeader = { kind: p.kind, priority: p.priority, descriptor: p.descriptor, rings, box: [minLon, minLat, maxLon, maxLat] };
    if (p.size !== undefined) h.size = p.size;
    if (p.disjointSet !== undefined) h.disjointSet = p.disjointSet;
    if (p.deck) h.deck = mapDeck(p.deck, (x, y) => frame.toLonLat(x, y));
    headers.push(h);
  }
  const json = new TextEncoder().encode(JSON.stringify({ seaUndecided, pieces: headers } satisfies CellHeader));
  const start = Math.ceil((4 + json.length) / 8) * 8;
  const bytes = new Uint8Array(start + coords.length * 8);
  new DataView(bytes.buffer).setUint32(0, json.length, true);
  bytes.set(json, 4);
  new Float64Array(bytes.buffer, start, coords.length).set(coords);
  return bytes;
}

/** Decodes a stored cell (the bytes may sit at any offset of their buffer). */
export function decodeGroundCell(bytes: Uint8Array): StoredGroundCell {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as CellHeader;
  const start = Math.ceil((4 + length) / 8) * 8;
  // copied: a float64 view needs an 8-aligned offset, which a blob from SQLite does not promise
  // (and a Node Buffer's slice is a view, not a copy)
  const coords = new Float64Array((bytes.length - start) / 8);
  new Uint8Array(coords.buffer).set(bytes.subarray(start));
  const offsets: number[] = [];
  let at = 0;
  for (const p of header.pieces) {
    offsets.push(at);
    for (const sizes of p.rings) for (const n of sizes) at += 2 * n;
  }
  if (at !== coords.length) throw new Error(`a stored ground cell is damaged: its header counts ${at / 2} vertices, its data holds ${coords.length / 2}`);
  return { seaUndecided: header.seaUndecided, pieces: header.pieces, coords, offsets };
}

/** The cell's pieces whose lon/lat box meets `box`, moved into `frame`. */
export function cellPiecesIn(cell: StoredGroundCell, frame: LocalFrame, box: LonLatBBox): SurfaceArea[] {
  const out: SurfaceArea[] = [];
  cell.pieces.forEach((p, n) => {
    const [minLon, minLat, maxLon, maxLat] = p.box;
    if (maxLon < box.minLon || minLon > box.maxLon || maxLat < box.minLat || minLat > box.maxLat) return;
    let at = cell.offsets[n];
    const footprints: Footprint[] = [];
    for (const sizes of p.rings) {
      const rings = sizes.map((size) => {
        const ring = projectFlat(frame, cell.coords.subarray(at, at + 2 * size));
        at += 2 * size;
        return ring;
      });
      footprints.push({ outer: rings[0], holes: rings.slice(1) });
    }
    const area: SurfaceArea = { kind: p.kind, priority: p.priority, footprints, descriptor: { ...p.descriptor } };
    if (p.size !== undefined) area.size = p.size;
    if (p.disjointSet !== undefined) area.disjointSet = p.disjointSet;
    if (p.deck) area.deck = mapDeck(p.deck, (lon, lat) => frame.toLocal(lon, lat));
    out.push(area);
  });
  return out;
}

function mapDeck(deck: DeckElevation, map: (x: number, y: number) => [number, number]): DeckElevation {
  const point = ({ x, y, z }: { x: number; y: number; z: number }) => {
    const [u, v] = map(x, y);
    return { x: u, y: v, z };
  };
  const out: DeckElevation = { start: point(deck.start), end: point(deck.end) };
  if (deck.axes) {
    out.axes = deck.axes.map((axis) => {
      const mapped = axis.slice();
      for (let k = 0; k < axis.length; k += 3) [mapped[k], mapped[k + 1]] = map(axis[k], axis[k + 1]);
      return mapped;
    });
  }
  return out;
}
