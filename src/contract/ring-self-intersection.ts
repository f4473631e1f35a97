/**
 * Finds where a closed ring meets itself, in O(n log n + k): the edges' bounding boxes go into a
 * Flatbush index and only edges whose boxes overlap are tested (k such pairs).
 *
 * The ring is planar (metres), given as a flat list [x0, y0, x1, y1, …] without the closing copy of
 * the first point and without consecutive points closer than `tolerance` (callers weld those first,
 * so every edge is longer than the tolerance). Edge e runs from vertex e to vertex (e + 1) mod n.
 *
 * What counts as meeting:
 * - two non-adjacent edges that share any point (a proper crossing, a vertex touching another edge,
 *   or a collinear overlap);
 * - two adjacent edges that overlap beyond their shared vertex (the ring folds back on itself: a spike).
 * Points within `tolerance` of each other count as the same point.
 *
 * @example
 *   // bow-tie: edges 0 (0,0→1,1) and 2 (1,0→0,1) cross
 *   findRingSelfIntersection(new Float64Array([0, 0, 1, 1, 1, 0, 0, 1])); // { edgeA: 0, edgeB: 2, kind: 'crossing' }
 */

import Flatbush from 'flatbush';

export interface RingIntersection {
  /** The lower edge index. */
  edgeA: number;
  /** The higher edge index. */
  edgeB: number;
  kind: 'crossing' | 'touching' | 'overlapping';
}

/** One micrometre: far below survey precision, far above double rounding at city scale. */
export const DEFAULT_TOLERANCE_M = 1e-6;

export function findRingSelfIntersection(coords: Float64Array, tolerance = DEFAULT_TOLERANCE_M): RingIntersection | null {
  const n = coords.length >> 1;
  if (n < 3) return null;

  const index = new Flatbush(n);
  for (let e = 0; e < n; e++) {
    const a = 2 * e;
    const b = 2 * ((e + 1) % n);
    index.add(
      Math.min(coords[a], coords[b]) - tolerance,
      Math.min(coords[a + 1], coords[b + 1]) - tolerance,
      Math.max(coords[a], coords[b]) + tolerance,
      Math.max(coords[a + 1], coords[b + 1]) + tolerance,
    );
  }
  index.finish();

  for (let e = 0; e < n; e++) {
    const a = 2 * e;
    const b = 2 * ((e + 1) % n);
    const candidates = index.search(
      Math.min(coords[a], coords[b]) - tolerance,
      Math.min(coords[a + 1], coords[b + 1]) - tolerance,
      Math.max(coords[a], coords[b]) + tolerance,
      Math.max(coords[a + 1], coords[b + 1]) + tolerance,
    );
    for (const f of candidates) {
      if (f <= e) continue; // each pair once
      const kind = f === e + 1 ? foldBack(coords, e, f, n, tolerance)
        : e === 0 && f === n - 1 ? foldBack(coords, f, e, n, tolerance)
        : segmentContact(coords, e, f, n, tolerance);
      if (kind) return { edgeA: e, edgeB: f, kind };
    }
  }
  return null;
}

/** Adjacent edges p→q (edge `first`) and q→r (edge `second`): do they overlap beyond q? */
function foldBack(c: Float64Array, first: number, second: number, n: number, tol: number): RingIntersection['kind'] | null {
  const p = 2 * first;
  const q = 2 * second;
  const r = 2 * ((second + 1) % n);
  if (Math.abs(signedDistance(c[p], c[p + 1], c[q], c[q + 1], c[r], c[r + 1])) > tol) return null;
  const dot = (c[q] - c[p]) * (c[r] - c[q]) + (c[q + 1] - c[p + 1]) * (c[r + 1] - c[q + 1]);
  return dot < 0 ? 'overlapping' : null;
}

/** Non-adjacent edges a→b and c→d: do they share any point? */
function segmentContact(k: Float64Array, e: number, f: number, n: number, tol: number): RingIntersection['kind'] | null {
  const a = 2 * e, b = 2 * ((e + 1) % n), c = 2 * f, d = 2 * ((f + 1) % n);
  const ax = k[a], ay = k[a + 1], bx = k[b], by = k[b + 1];
  const cx = k[c], cy = k[c + 1], dx = k[d], dy = k[d + 1];

  const sa = sideOf(cx, cy, dx, dy, ax, ay, tol);
  const sb = sideOf(cx, cy, dx, dy, bx, by, tol);
  const sc = sideOf(ax, ay, bx, by, cx, cy, tol);
  const sd = sideOf(ax, ay, bx, by, dx, dy, tol);

  if (sa * sb < 0 && sc * sd < 0) return 'crossing';
  if (sa === 0 && sb === 0 && sc === 0 && sd === 0) {
    // Collinear: they meet if their extents along the line overlap (within tolerance).
    const ux = bx - ax, uy = by - ay;
    const len = Math.hypot(ux, uy);
    const tc = ((cx - ax) * ux + (cy - ay) * uy) / len;
    const td = ((dx - ax) * ux + (dy - ay) * uy) / len;
    const lo = Math.max(0, Math.min(tc, td));
    const hi = Math.min(len, Math.max(tc, td));
    if (hi - lo > tol) return 'overlapping';
    return hi - lo >= -tol ? 'touching' : null;
  }
  if ((sa === 0 && within(cx, cy, dx, dy, ax, ay, tol)) || (sb === 0 && within(cx, cy, dx, dy, bx, by, tol))
    || (sc === 0 && within(ax, ay, bx, by, cx, cy, tol)) || (sd === 0 && within(ax, ay, bx, by, dx, dy, tol))) {
    return 'touching';
  }
  return null;
}

/** Distance of (px, py) from the line through (ax, ay)→(bx, by), positive on the left. */
function signedDistance(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  const ux = bx - ax, uy = by - ay;
  return (ux * (py - ay) - uy * (px - ax)) / Math.hypot(ux, uy);
}

/** -1, 0 or 1: which side of the line a→b the point lies on, 0 within the tolerance. */
function sideOf(ax: number, ay: number, bx: number, by: number, px: number, py: number, tol: number): number {
  const d = signedDistance(ax, ay, bx, by, px, py);
  return d > tol ? 1 : d < -tol ? -1 : 0;
}

/** For a point known to lie on the line a→b: is it between a and b (within tolerance)? */
function within(ax: number, ay: number, bx: number, by: number, px: number, py: number, tol: number): boolean {
  const ux = bx - ax, uy = by - ay;
  const len = Math.hypot(ux, uy);
  const t = ((px - ax) * ux + (py - ay) * uy) / len;
  return t >= -tol && t <= len + tol;
}
