import type { Footprint, Ring } from './types.ts';
import { pointInRing, signedArea2 } from './ring.ts';
import { orient, segmentsIntersect } from './segments.ts';

/** Planar checks on rings: simplicity, convexity, areas (roof builders and footprint repair use them). */

/** Segments of a set of rings as [x1, y1, x2, y2] plus which ring and index each came from. */
interface Segment { x1: number; y1: number; x2: number; y2: number; ring: number; index: number; count: number }

function segmentsOf(rings: readonly Ring[]): Segment[] {
  const out: Segment[] = [];
  rings.forEach((ring, r) => {
    const n = ring.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      out.push({ x1: ring[2 * i], y1: ring[2 * i + 1], x2: ring[2 * j], y2: ring[2 * j + 1], ring: r, index: i, count: n });
    }
  });
  return out;
}

/**
 * True when no two sides of the rings touch or cross, apart from neighbouring sides of one ring
 * meeting at their shared corner. O(n²) with a bounding-box sweep; footprints are small.
 */
export function ringsAreDisjointAndSimple(rings: readonly Ring[]): boolean {
  const segs = segmentsOf(rings);
  segs.sort((a, b) => Math.min(a.x1, a.x2) - Math.min(b.x1, b.x2));
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i];
    const sMaxX = Math.max(s.x1, s.x2);
    for (let j = i + 1; j < segs.length; j++) {
      const t = segs[j];
      if (Math.min(t.x1, t.x2) > sMaxX) break;
      if (s.ring === t.ring) {
        const d = Math.abs(s.index - t.index);
        if (d === 1 || d === s.count - 1) {
          // neighbours share one corner; they must not overlap beyond it
          if (s.count === 3 || !foldsBack(s, t)) continue;
          return false;
        }
      }
      if (segmentsIntersect(s.x1, s.y1, s.x2, s.y2, t.x1, t.y1, t.x2, t.y2)) return false;
    }
  }
  return true;
}

/** Neighbouring sides fold back on each other (a zero-width spike). */
function foldsBack(s: Segment, t: Segment): boolean {
  const ax = s.x2 - s.x1, ay = s.y2 - s.y1, bx = t.x2 - t.x1, by = t.y2 - t.y1;
  return ax * by - ay * bx === 0 && ax * bx + ay * by < 0;
}

/** True when every hole lies inside the outer ring (tested at one vertex each; rings must not cross). */
export function holesInsideOuter(footprint: Footprint): boolean {
  return footprint.holes.every((h) => pointInRing(h[0], h[1], footprint.outer));
}


/** True for a counter-clockwise ring whose every corner turns left (straight corners, and reflex ones within `tolerance` of straight, allowed). */
export function isConvexRing(ring: Ring, tolerance = 1e-9): boolean {
  const n = ring.length / 2;
  if (signedArea2(ring) <= 0) return false;
  for (let i = 0; i < n; i++) {
    const p = (i + n - 1) % n, q = (i + 1) % n;
    const c = orient(ring[2 * p], ring[2 * p + 1], ring[2 * i], ring[2 * i + 1], ring[2 * q], ring[2 * q + 1]);
    const scale = Math.hypot(ring[2 * i] - ring[2 * p], ring[2 * i + 1] - ring[2 * p + 1]) * Math.hypot(ring[2 * q] - ring[2 * i], ring[2 * q + 1] - ring[2 * i + 1]);
    if (c < -tolerance * scale) return false;
  }
  return true;
}

/** Area centroid of a ring. */
export function ringCentroid(ring: Ring): [number, number] {
  const n = ring.length / 2;
  // relative to the first vertex for precision
  const ox = ring[0], oy = ring[1];
  let a2 = 0, cx = 0, cy = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const xi = ring[2 * i] - ox, yi = ring[2 * i + 1] - oy, xj = ring[2 * j] - ox, yj = ring[2 * j + 1] - oy;
    const c = xi * yj - xj * yi;
    a2 += c;
    cx += (xi + xj) * c;
    cy += (yi + yj) * c;
  }
  if (a2 === 0) return [ox, oy];
  return [ox + cx / (3 * a2), oy + cy / (3 * a2)];
}

/** True when the simple polygon `ring` (given as vertex ids into x/y) is simple: no two non-neighbouring sides meet. */
export function polygonIsSimple(ids: readonly number[], x: ArrayLike<number>, y: ArrayLike<number>): boolean {
  const n = ids.length;
  for (let i = 0; i < n; i++) {
    const a = ids[i], b = ids[(i + 1) % n];
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      const c = ids[j], d = ids[(j + 1) % n];
      if (segmentsIntersect(x[a], y[a], x[b], y[b], x[c], y[c], x[d], y[d])) return false;
    }
  }
  return true;
}

/** Twice the signed area of a polygon given as vertex ids into x/y. */
export function polygonArea2(ids: readonly number[], x: ArrayLike<number>, y: ArrayLike<number>): number {
  let sum = 0;
  const n = ids.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    sum += (x[ids[j]] - x[ids[i]]) * (y[ids[j]] + y[ids[i]]);
  }
  return sum;
}
