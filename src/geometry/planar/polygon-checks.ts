import type { Footprint, Ring } from '../types.ts';
import { pointInRing, signedArea2 } from '../ring.ts';
import { orient, segmentsIntersect } from '../segments.ts';

/** Planar checks on rings: simplicity, convexity, areas (roof builders and footprint repair use them). */

/**
 * True when no two sides of the rings touch or cross, apart from neighbouring sides of one ring
 * meeting at their shared corner. O(n²) with a bounding-box sweep; footprints are small. The sides
 * live in typed arrays and are sorted by index with a module-level comparator: no object per side
 * and no closure (every ground piece and footprint passes here).
 */
export function ringsAreDisjointAndSimple(rings: readonly Ring[]): boolean {
  let total = 0;
  for (const ring of rings) total += ring.length / 2;
  const xy = new Float64Array(4 * total),
    meta = new Int32Array(3 * total),
    minX = new Float64Array(total);
  let k = 0;
  for (let r = 0; r < rings.length; r++) {
    const ring = rings[r],
      n = ring.length / 2;
    for (let i = 0; i < n; i++, k++) {
      const j = (i + 1) % n;
      xy[4 * k] = ring[2 * i];
      xy[4 * k + 1] = ring[2 * i + 1];
      xy[4 * k + 2] = ring[2 * j];
      xy[4 * k + 3] = ring[2 * j + 1];
      meta[3 * k] = r;
      meta[3 * k + 1] = i;
      meta[3 * k + 2] = n;
      minX[k] = Math.min(xy[4 * k], xy[4 * k + 2]);
    }
  }
  // the same order as sorting the sides by their smaller x (a stable sort of the side numbers)
  const order = new Array<number>(total);
  for (let i = 0; i < total; i++) order[i] = i;
  sortKeys = minX;
  order.sort(byKey);
  sortKeys = EMPTY;
  for (let a = 0; a < total; a++) {
    const s = order[a];
    const sx1 = xy[4 * s],
      sy1 = xy[4 * s + 1],
      sx2 = xy[4 * s + 2],
      sy2 = xy[4 * s + 3];
    const sMaxX = Math.max(sx1, sx2);
    for (let b = a + 1; b < total; b++) {
      const t = order[b];
      if (minX[t] > sMaxX) break;
      const tx1 = xy[4 * t],
        ty1 = xy[4 * t + 1],
        tx2 = xy[4 * t + 2],
        ty2 = xy[4 * t + 3];
      if (meta[3 * s] === meta[3 * t]) {
        const d = Math.abs(meta[3 * s + 1] - meta[3 * t + 1]),
          count = meta[3 * s + 2];
        if (d === 1 || d === count - 1) {
          // neighbours share one corner; they must not overlap beyond it
          if (count === 3 || !foldsBack(sx2 - sx1, sy2 - sy1, tx2 - tx1, ty2 - ty1)) continue;
          return false;
        }
      }
      if (segmentsIntersect(sx1, sy1, sx2, sy2, tx1, ty1, tx2, ty2)) return false;
    }
  }
  return true;
}

const EMPTY = new Float64Array(0);
/** The keys `byKey` compares (set around one sort: sorts do not nest). */
let sortKeys: Float64Array = EMPTY;

function byKey(a: number, b: number): number {
  return sortKeys[a] - sortKeys[b];
}

/** Neighbouring sides (a, b directions) fold back on each other (a zero-width spike). */
function foldsBack(ax: number, ay: number, bx: number, by: number): boolean {
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
    const p = (i + n - 1) % n,
      q = (i + 1) % n;
    const c = orient(ring[2 * p], ring[2 * p + 1], ring[2 * i], ring[2 * i + 1], ring[2 * q], ring[2 * q + 1]);
    const scale =
      Math.hypot(ring[2 * i] - ring[2 * p], ring[2 * i + 1] - ring[2 * p + 1]) * Math.hypot(ring[2 * q] - ring[2 * i], ring[2 * q + 1] - ring[2 * i + 1]);
    if (c < -tolerance * scale) return false;
  }
  return true;
}

/** Area centroid of a ring. */
export function ringCentroid(ring: Ring): [number, number] {
  const n = ring.length / 2;
  // relative to the first vertex for precision
  const ox = ring[0],
    oy = ring[1];
  let a2 = 0,
    cx = 0,
    cy = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const xi = ring[2 * i] - ox,
      yi = ring[2 * i + 1] - oy,
      xj = ring[2 * j] - ox,
      yj = ring[2 * j + 1] - oy;
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
    const a = ids[i],
      b = ids[(i + 1) % n];
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue;
      const c = ids[j],
        d = ids[(j + 1) % n];
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
