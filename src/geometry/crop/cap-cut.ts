import { triangulateRings } from '../triangulate/index.ts';
import { pointInRing, signedArea2 } from '../ring.ts';
import type { CropPolygon } from './crop-polygon.ts';

/**
 * The walls that close a solid cut by the polygon's vertical prism. After the cut the kept
 * triangles leave open edges only on the prism's faces; on each polygon edge they form, in the
 * edge's vertical plane (s along the edge, z up), chains that either close on themselves or end on
 * the vertical lines through the edge's two corners. There the chains of neighbouring edges meet
 * at the very same vertices, so joining the ends on each corner line (pairs of ascending heights:
 * upwards at the edge's end, downwards at its start) gives closed loops, and the cap faces of two
 * neighbouring edges share those vertical joins in opposite directions — the result is closed.
 * Each face's loops are triangulated (earcut keeping every vertex, no new ones) counter-clockwise in (s, z), which is
 * outward for a counter-clockwise polygon.
 *
 * Returns the cap triangles (indices into `positions`), or null when the open edges do not form
 * such a pattern (a building corner exactly on a polygon corner, a non-manifold input): the caller
 * retries with the polygon nudged.
 */
export function capOpenEdges(positions: Float64Array, open: readonly number[], poly: CropPolygon, tolerance: number): number[] | null {
  const e = poly.edges;
  // each open edge's polygon edge: the nearest segment (smallest worst endpoint distance); an edge
  // standing on a corner line (both ends at one plan point) is near two segments alike, so it takes
  // the segment of the open edge before or after it on the boundary (the cap it closes)
  const count = open.length / 2;
  const side = new Int32Array(count).fill(-1);
  const vertical: number[] = [];
  const into = new Map<number, number>(),
    from = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const a = open[2 * i],
      b = open[2 * i + 1];
    into.set(b, i);
    from.set(a, i);
    let best = -1,
      bestDist = tolerance,
      second = Infinity;
    for (let k = 0; k < poly.n; k++) {
      const dd = Math.max(segmentDistance(e, k, positions[3 * a], positions[3 * a + 1]), segmentDistance(e, k, positions[3 * b], positions[3 * b + 1]));
      if (dd < bestDist) {
        second = bestDist;
        bestDist = dd;
        best = k;
      } else if (dd < second) second = dd;
    }
    if (best < 0) return null;
    const short = Math.hypot(positions[3 * a] - positions[3 * b], positions[3 * a + 1] - positions[3 * b + 1]) < tolerance;
    if (short && second - bestDist < AMBIGUOUS) vertical.push(i);
    else side[i] = best;
  }
  for (let pass = 0; pass < 4 && vertical.some((i) => side[i] < 0); pass++) {
    for (const i of vertical) {
      if (side[i] >= 0) continue;
      const before = into.get(open[2 * i]),
        after = from.get(open[2 * i + 1]);
      if (before !== undefined && side[before] >= 0) side[i] = side[before];
      else if (after !== undefined && side[after] >= 0) side[i] = side[after];
    }
  }
  const byEdge = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    if (side[i] < 0) return null;
    let list = byEdge.get(side[i]);
    if (!list) byEdge.set(side[i], (list = []));
    list.push(open[2 * i + 1], open[2 * i]); // the cap runs against the open edge
  }
  const out: number[] = [];
  for (const [k, capEdges] of byEdge) if (!capFace(positions, capEdges, e, k, tolerance, out)) return null;
  return out;
}

/** Two segments nearer than this to each other (metres) cannot tell a short open edge's face apart (a corner line: millimetre rounding). */
const AMBIGUOUS = 0.0015;

function segmentDistance(e: Float64Array, k: number, x: number, y: number): number {
  const o = 8 * k;
  const t = Math.max(0, Math.min(e[o + 6], (x - e[o]) * e[o + 4] + (y - e[o + 1]) * e[o + 5]));
  return Math.hypot(x - e[o] - t * e[o + 4], y - e[o + 1] - t * e[o + 5]);
}

function capFace(P: Float64Array, edges: number[], e: Float64Array, k: number, tolerance: number, out: number[]): boolean {
  const o = 8 * k,
    len = e[o + 6];
  const s = (v: number) => (P[3 * v] - e[o]) * e[o + 4] + (P[3 * v + 1] - e[o + 1]) * e[o + 5];
  const balance = new Map<number, number>();
  for (let i = 0; i < edges.length; i += 2) {
    balance.set(edges[i], (balance.get(edges[i]) ?? 0) + 1);
    balance.set(edges[i + 1], (balance.get(edges[i + 1]) ?? 0) - 1);
  }
  const atStart: number[] = [],
    atEnd: number[] = [];
  for (const [v, b] of balance) {
    if (b === 0) continue;
    if (Math.abs(b) > 1) return false;
    const sv = s(v);
    if (sv < tolerance && sv <= len / 2) atStart.push(v);
    else if (sv > len - tolerance) atEnd.push(v);
    else return false;
  }
  // joins on the corner lines: upwards at the end (s = len), downwards at the start (s = 0)
  if (!join(P, atEnd, balance, true, edges) || !join(P, atStart, balance, false, edges)) return false;
  const loops = traceLoops(edges);
  if (!loops) return false;
  const outers: { ring: number[]; ids: number[]; holes: { ring: number[]; ids: number[] }[]; area: number }[] = [];
  const holes: { ring: number[]; ids: number[] }[] = [];
  for (const ids of loops) {
    const ring: number[] = [];
    for (const v of ids) ring.push(s(v), P[3 * v + 2]);
    const area = signedArea2(ring);
    if (area > 0) outers.push({ ring, ids, holes: [], area });
    else if (area < 0) holes.push({ ring, ids });
    else return false;
  }
  outers.sort((a, b) => a.area - b.area);
  for (const h of holes) {
    const x = (h.ring[0] + h.ring[2]) / 2,
      y = (h.ring[1] + h.ring[3]) / 2;
    const host = outers.find((q) => pointInRing(x, y, q.ring));
    if (!host) return false;
    host.holes.push(h);
  }
  for (const q of outers) {
    // every vertex kept, also those on a straight stretch (earcut drops them: a T-junction, an open mesh)
    const coords = [...q.ring],
      holeStarts: number[] = [];
    for (const h of q.holes) {
      holeStarts.push(coords.length / 2);
      coords.push(...h.ring);
    }
    // (`ok` is false for slivers too, which millimetre features at a corner make: the closed-mesh check
    // of the whole cut decides instead)
    const { triangles } = triangulateRings(coords, holeStarts);
    if (triangles.length === 0) return false;
    const ids = [...q.ids, ...q.holes.flatMap((h) => h.ids)];
    for (const t of triangles) out.push(ids[t]);
  }
  return true;
}

/** Adds the vertical joins between chain ends on one corner line; false when they do not alternate. */
function join(P: Float64Array, ends: number[], balance: Map<number, number>, upwards: boolean, edges: number[]): boolean {
  if (ends.length % 2 !== 0) return false;
  ends.sort((a, b) => P[3 * a + 2] - P[3 * b + 2]);
  for (let i = 0; i < ends.length; i += 2) {
    const low = ends[i],
      high = ends[i + 1];
    // upwards: a chain arrives at the low end (in > out) and leaves from the high end
    const from = upwards ? low : high,
      to = upwards ? high : low;
    if (balance.get(from) !== -1 || balance.get(to) !== 1) return false;
    edges.push(from, to);
  }
  return true;
}

/** Directed edges (pairs) into closed vertex loops; null when some edge has no continuation. */
function traceLoops(edges: number[]): number[][] | null {
  const next = new Map<number, number[]>();
  for (let i = 0; i < edges.length; i += 2) {
    let list = next.get(edges[i]);
    if (!list) next.set(edges[i], (list = []));
    list.push(edges[i + 1]);
  }
  const loops: number[][] = [];
  for (const [startVertex, list] of next) {
    while (list.length > 0) {
      const loop = [startVertex];
      let v = list.pop()!;
      while (v !== startVertex) {
        const outs = next.get(v);
        if (!outs || outs.length === 0 || loop.length > edges.length) return null;
        loop.push(v);
        v = outs.pop()!;
      }
      if (loop.length < 3) return null;
      loops.push(loop);
    }
  }
  return loops;
}
