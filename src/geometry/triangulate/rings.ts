import earcut, { refine } from 'earcut';

/**
 * Triangulation of a polygon with holes that keeps every ring vertex, including vertices lying on a
 * straight edge. earcut drops such vertices (and leaves near-zero-area slivers for almost-straight
 * ones); a roof needs them all, because a neighbouring face or wall may end there and a dropped
 * vertex is a T-junction, i.e. an open mesh at millimetre precision.
 *
 * How: vertices within `straightTolerance` of the segment between their neighbours are set aside,
 * earcut triangulates the rest, and every triangle side that spans set-aside vertices is fanned
 * from the opposite corner so that the side is walked vertex by vertex again.
 */

export interface RingTriangulation {
  /** Counter-clockwise triangles as vertex-index triples into the input coordinates. */
  triangles: number[];
  /** True when the triangles cover the polygon's area, use every vertex and none is a sliver (under 1e-8 m²). */
  ok: boolean;
}

/** Twice the smallest triangle area accepted (the mesh check's 1e-8 m²). */
const MIN_AREA2 = 2e-8;

/** Vertices closer than this to the chord of their neighbours are treated as lying on it (metres). */
export const STRAIGHT_TOLERANCE = 1e-4;

/**
 * @param coords flat [x0, y0, x1, y1, …]: outer ring, then holes (any orientation)
 * @param holeStarts vertex index where each hole ring starts
 */
export function triangulateRings(coords: ArrayLike<number>, holeStarts: readonly number[] = [], straightTolerance = STRAIGHT_TOLERANCE): RingTriangulation {
  const vertexCount = coords.length / 2;
  const ringStarts = [0, ...holeStarts];
  const ringEnds = [...holeStarts, vertexCount];

  // For every kept vertex: the set-aside vertices that follow it along its ring (up to the next kept one).
  const kept: boolean[] = new Array(vertexCount).fill(true);
  const nextKept = new Int32Array(vertexCount).fill(-1);
  for (let r = 0; r < ringStarts.length; r++) markStraightVertices(coords, ringStarts[r], ringEnds[r], kept, straightTolerance);

  const keptCoords: number[] = [];
  const keptIndex: number[] = [];
  const keptHoleStarts: number[] = [];
  for (let r = 0; r < ringStarts.length; r++) {
    const start = keptIndex.length;
    if (r > 0) keptHoleStarts.push(start);
    let first = -1,
      prev = -1;
    for (let i = ringStarts[r]; i < ringEnds[r]; i++) {
      if (!kept[i]) continue;
      keptIndex.push(i);
      keptCoords.push(coords[2 * i], coords[2 * i + 1]);
      if (prev >= 0) nextKept[prev] = i;
      else first = i;
      prev = i;
    }
    if (prev >= 0) nextKept[prev] = first;
    if (keptIndex.length - start < 3) return { triangles: [], ok: false };
  }

  const raw = earcut(keptCoords, keptHoleStarts.length ? keptHoleStarts : null, 2);
  // Flip interior edges towards Delaunay: earcut can leave a zero-area sliver where a vertex lies
  // on a diagonal (not on a side), which a millimetre-precision check counts as degenerate.
  refine(raw, keptCoords, 2);
  const triangles: number[] = [];
  const used = new Uint8Array(vertexCount);
  for (let t = 0; t < raw.length; t += 3) {
    let a = keptIndex[raw[t]],
      b = keptIndex[raw[t + 1]],
      c = keptIndex[raw[t + 2]];
    const area2 = cross(coords, a, b, c);
    if (area2 === 0) continue;
    if (area2 < 0) [b, c] = [c, b];
    splitTriangle(
      a,
      b,
      c,
      sideChain(a, b, nextKept, ringOf(a, ringStarts, ringEnds), ringStarts, ringEnds),
      sideChain(b, c, nextKept, ringOf(b, ringStarts, ringEnds), ringStarts, ringEnds),
      sideChain(c, a, nextKept, ringOf(c, ringStarts, ringEnds), ringStarts, ringEnds),
      triangles,
    );
  }

  let covered = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const area2 = cross(coords, triangles[t], triangles[t + 1], triangles[t + 2]);
    if (!(area2 > MIN_AREA2)) return { triangles, ok: false };
    covered += area2;
    used[triangles[t]] = used[triangles[t + 1]] = used[triangles[t + 2]] = 1;
  }
  let expected = 0;
  for (let r = 0; r < ringStarts.length; r++) {
    const a = Math.abs(ringArea2(coords, ringStarts[r], ringEnds[r]));
    expected += r === 0 ? a : -a;
  }
  let allUsed = true;
  for (let i = 0; i < vertexCount; i++) if (!used[i]) allUsed = false;
  const ok = allUsed && Math.abs(covered - expected) <= 1e-9 * Math.max(expected, 1) + 1e-9;
  return { triangles, ok };
}

/** Marks vertices lying on the chord between their kept neighbours, repeatedly (a removal can straighten the next one). */
function markStraightVertices(coords: ArrayLike<number>, start: number, end: number, kept: boolean[], tolerance: number): void {
  let changed = true;
  while (changed) {
    changed = false;
    const ring: number[] = [];
    for (let i = start; i < end; i++) if (kept[i]) ring.push(i);
    const n = ring.length;
    let count = n;
    for (let k = 0; k < n && count > 3; k++) {
      const p = ring[(k + n - 1) % n],
        i = ring[k],
        q = ring[(k + 1) % n];
      if (!kept[p] || !kept[q]) continue; // a neighbour went in this sweep: look again next sweep
      if (onChord(coords, p, i, q, tolerance)) {
        kept[i] = false;
        changed = true;
        count--;
      }
    }
  }
}

/** True when vertex i lies within `tolerance` of segment p–q and strictly between its ends. */
function onChord(coords: ArrayLike<number>, p: number, i: number, q: number, tolerance: number): boolean {
  const px = coords[2 * p],
    py = coords[2 * p + 1];
  const dx = coords[2 * q] - px,
    dy = coords[2 * q + 1] - py;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return true;
  const ix = coords[2 * i] - px,
    iy = coords[2 * i + 1] - py;
  const along = (ix * dx + iy * dy) / len2;
  if (!(along > 0 && along < 1)) return false;
  const off = Math.abs(ix * dy - iy * dx) / Math.sqrt(len2);
  return off <= tolerance;
}

function ringOf(i: number, starts: number[], ends: number[]): number {
  for (let r = 0; r < starts.length; r++) if (i >= starts[r] && i < ends[r]) return r;
  return -1;
}

/** The set-aside vertices on triangle side u→v, in that order, when the side is a (reduced) ring side; else []. */
function sideChain(u: number, v: number, nextKept: Int32Array, ring: number, starts: number[], ends: number[]): number[] {
  if (nextKept[u] === v) return walkRing(u, v, starts[ring], ends[ring]);
  if (nextKept[v] === u) return walkRing(v, u, starts[ring], ends[ring]).reverse();
  return [];
}

/** The vertices strictly between `from` and `to` along ring [s, e). */
function walkRing(from: number, to: number, s: number, e: number): number[] {
  const out: number[] = [];
  for (let i = from + 1 === e ? s : from + 1; i !== to; i = i + 1 === e ? s : i + 1) out.push(i);
  return out;
}

/** Emits triangle a→b→c with the given extra vertices on its sides, fanning each loaded side from its opposite corner. */
function splitTriangle(a: number, b: number, c: number, ab: number[], bc: number[], ca: number[], out: number[]): void {
  if (ab.length === 0 && bc.length === 0 && ca.length === 0) {
    out.push(a, b, c);
    return;
  }
  if (ab.length === 0) {
    // rotate so the loaded side comes first
    if (bc.length > 0) splitTriangle(b, c, a, bc, ca, ab, out);
    else splitTriangle(c, a, b, ca, ab, bc, out);
    return;
  }
  const chain = [a, ...ab, b];
  for (let k = 0; k + 1 < chain.length; k++) {
    const first = k === 0,
      last = k + 1 === chain.length - 1;
    splitTriangle(chain[k], chain[k + 1], c, [], last ? bc : [], first ? ca : [], out);
  }
}

function cross(coords: ArrayLike<number>, a: number, b: number, c: number): number {
  const ax = coords[2 * a],
    ay = coords[2 * a + 1];
  return (coords[2 * b] - ax) * (coords[2 * c + 1] - ay) - (coords[2 * b + 1] - ay) * (coords[2 * c] - ax);
}

function ringArea2(coords: ArrayLike<number>, start: number, end: number): number {
  let sum = 0;
  for (let i = start, j = end - 1; i < end; j = i++) {
    sum += (coords[2 * j] - coords[2 * i]) * (coords[2 * j + 1] + coords[2 * i + 1]);
  }
  return sum;
}
