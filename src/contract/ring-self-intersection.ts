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
 * k is small for real outlines (a few per edge) but a crafted ring — thousands of long spikes
 * fanning out from one spot — makes nearly every pair of boxes overlap. `maxCandidatePairs` bounds
 * the work; past it the answer is `too_complex` instead of seconds of CPU.
 *
 * @example
 *   // bow-tie: edges 0 (0,0→1,1) and 2 (1,0→0,1) cross
 *   findRingSelfIntersection(new Float64Array([0, 0, 1, 1, 1, 0, 0, 1]));
 *   // → { status: 'intersecting', edgeA: 0, edgeB: 2, kind: 'crossing' }
 */

import Flatbush from 'flatbush';

export type RingCheck =
  | { status: 'simple' }
  | { status: 'intersecting' /** lower edge index */; edgeA: number /** higher edge index */; edgeB: number; kind: 'crossing' | 'touching' | 'overlapping' }
  | { status: 'too_complex'; candidatePairs: number };

export interface RingCheckOptions {
  /** Distance in metres below which points count as one. */
  tolerance: number;
  /** Most edge pairs with overlapping boxes to test before giving up. */
  maxCandidatePairs: number;
}

export const RING_CHECK_DEFAULTS: RingCheckOptions = {
  /** One micrometre: far below survey precision, far above double rounding at city scale. */
  tolerance: 1e-6,
  /** 100 per edge of a 10,000-point ring, some 50 ms of work at worst; real outlines need a few per edge. */
  maxCandidatePairs: 1_000_000,
};

type Kind = 'crossing' | 'touching' | 'overlapping';

export function findRingSelfIntersection(coords: Float64Array, options: Partial<RingCheckOptions> = {}): RingCheck {
  const { tolerance: tol, maxCandidatePairs } = { ...RING_CHECK_DEFAULTS, ...options };
  const n = coords.length >> 1;
  if (n < 3) return { status: 'simple' };

  // Per edge: start, direction and length, so the pair tests need no square roots.
  const ax = new Float64Array(n),
    ay = new Float64Array(n),
    ux = new Float64Array(n),
    uy = new Float64Array(n),
    len = new Float64Array(n);
  const index = new Flatbush(n);
  for (let e = 0; e < n; e++) {
    const a = 2 * e,
      b = 2 * ((e + 1) % n);
    ax[e] = coords[a];
    ay[e] = coords[a + 1];
    ux[e] = coords[b] - coords[a];
    uy[e] = coords[b + 1] - coords[a + 1];
    len[e] = Math.hypot(ux[e], uy[e]);
    index.add(
      Math.min(coords[a], coords[b]) - tol,
      Math.min(coords[a + 1], coords[b + 1]) - tol,
      Math.max(coords[a], coords[b]) + tol,
      Math.max(coords[a + 1], coords[b + 1]) + tol,
    );
  }
  index.finish();

  /** -1, 0, 1: side of point (px, py) relative to edge e, 0 within the tolerance. */
  const side = (e: number, px: number, py: number): number => {
    const d = (ux[e] * (py - ay[e]) - uy[e] * (px - ax[e])) / len[e];
    return d > tol ? 1 : d < -tol ? -1 : 0;
  };
  /** Position of (px, py) along edge e, in metres from its start. */
  const along = (e: number, px: number, py: number): number => ((px - ax[e]) * ux[e] + (py - ay[e]) * uy[e]) / len[e];
  const within = (e: number, px: number, py: number): boolean => {
    const t = along(e, px, py);
    return t >= -tol && t <= len[e] + tol;
  };

  /** Adjacent edges p→q (edge `first`) and q→r (edge `second`): do they overlap beyond q? */
  const foldBack = (first: number, second: number): Kind | null => {
    const rx = ax[second] + ux[second],
      ry = ay[second] + uy[second];
    if (side(first, rx, ry) !== 0) return null;
    return ux[first] * ux[second] + uy[first] * uy[second] < 0 ? 'overlapping' : null;
  };

  /** Non-adjacent edges e and f: do they share any point? */
  const contact = (e: number, f: number): Kind | null => {
    const bx = ax[e] + ux[e],
      by = ay[e] + uy[e],
      dx = ax[f] + ux[f],
      dy = ay[f] + uy[f];
    const sa = side(f, ax[e], ay[e]),
      sb = side(f, bx, by);
    if (sa === sb && sa !== 0) return null; // e entirely on one side of f
    const sc = side(e, ax[f], ay[f]),
      sd = side(e, dx, dy);
    if (sc === sd && sc !== 0) return null;
    if (sa * sb < 0 && sc * sd < 0) return 'crossing';
    if (sa === 0 && sb === 0 && sc === 0 && sd === 0) {
      // Collinear: they meet if their extents along e overlap (within tolerance).
      const tc = along(e, ax[f], ay[f]),
        td = along(e, dx, dy);
      const overlap = Math.min(len[e], Math.max(tc, td)) - Math.max(0, Math.min(tc, td));
      return overlap > tol ? 'overlapping' : overlap >= -tol ? 'touching' : null;
    }
    if ((sa === 0 && within(f, ax[e], ay[e])) || (sb === 0 && within(f, bx, by)) || (sc === 0 && within(e, ax[f], ay[f])) || (sd === 0 && within(e, dx, dy)))
      return 'touching';
    return null;
  };

  let pairs = 0;
  for (let e = 0; e < n; e++) {
    let hit: { f: number; kind: Kind } | null = null;
    const x0 = ax[e],
      y0 = ay[e],
      x1 = x0 + ux[e],
      y1 = y0 + uy[e];
    index.search(Math.min(x0, x1) - tol, Math.min(y0, y1) - tol, Math.max(x0, x1) + tol, Math.max(y0, y1) + tol, (f) => {
      if (f <= e || hit || pairs > maxCandidatePairs) return false; // each pair once; stop work after a verdict
      pairs++;
      const kind = f === e + 1 ? foldBack(e, f) : e === 0 && f === n - 1 ? foldBack(f, e) : contact(e, f);
      if (kind) hit = { f, kind };
      return false;
    });
    if (hit) {
      const { f, kind } = hit as { f: number; kind: Kind };
      return { status: 'intersecting', edgeA: e, edgeB: f, kind };
    }
    if (pairs > maxCandidatePairs) return { status: 'too_complex', candidatePairs: pairs };
  }
  return { status: 'simple' };
}
