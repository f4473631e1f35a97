import type { BBox, Footprint, Ring } from './types.ts';

/** Twice the signed area of a ring: positive when counter-clockwise (x east, y north). */
export function signedArea2(ring: Ring): number {
  let sum = 0;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    sum += (ring[2 * j] - ring[2 * i]) * (ring[2 * j + 1] + ring[2 * i + 1]);
  }
  return sum;
}

export function ringArea(ring: Ring): number {
  return Math.abs(signedArea2(ring)) / 2;
}

export function isCounterClockwise(ring: Ring): boolean {
  return signedArea2(ring) > 0;
}

export function reverseRing(ring: Ring): Ring {
  const out: Ring = new Array(ring.length);
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    out[2 * i] = ring[2 * (n - 1 - i)];
    out[2 * i + 1] = ring[2 * (n - 1 - i) + 1];
  }
  return out;
}

/** Rounds every coordinate to the given grid (default 1 mm), the precision of the output. */
export function quantizeRing(ring: Ring, step = 0.001): Ring {
  return ring.map((v) => Math.round(v / step) * step);
}

/**
 * Makes a ring safe to extrude and triangulate: drops a closing duplicate, vertices closer than
 * `minSpacing` to their predecessor, and vertices on a straight line with their neighbours
 * (including zero-width spikes). Returns an empty ring when fewer than three corners remain.
 */
export function cleanRing(ring: Ring, minSpacing = 0.01, collinearTolerance = 1e-9): Ring {
  let pts: number[] = [];
  for (let i = 0; i < ring.length; i += 2) {
    const x = ring[i],
      y = ring[i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const m = pts.length;
    if (m >= 2 && Math.hypot(x - pts[m - 2], y - pts[m - 1]) < minSpacing) continue;
    pts.push(x, y);
  }
  while (pts.length >= 4 && Math.hypot(pts[0] - pts[pts.length - 2], pts[1] - pts[pts.length - 1]) < minSpacing) {
    pts.length -= 2;
  }
  // Remove collinear corners until none is left (a removal can make its neighbour collinear).
  let changed = true;
  while (changed && pts.length >= 6) {
    changed = false;
    const n = pts.length / 2;
    const keep: number[] = [];
    for (let i = 0; i < n; i++) {
      const p = (i + n - 1) % n,
        q = (i + 1) % n;
      const ax = pts[2 * p],
        ay = pts[2 * p + 1],
        bx = pts[2 * i],
        by = pts[2 * i + 1],
        cx = pts[2 * q],
        cy = pts[2 * q + 1];
      const cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
      const scale = Math.hypot(bx - ax, by - ay) * Math.hypot(cx - bx, cy - by);
      if (Math.abs(cross) <= collinearTolerance * Math.max(scale, 1e-12) * 1e3) {
        changed = true;
        continue;
      }
      keep.push(bx, by);
    }
    pts = keep;
  }
  return pts.length >= 6 ? pts : [];
}

/** Cleans and orients a footprint: outer ring counter-clockwise, holes clockwise; null when the outer ring collapses. */
export function normalizeFootprint(footprint: Footprint, minSpacing = 0.01): Footprint | null {
  let outer = cleanRing(quantizeRing(footprint.outer), minSpacing);
  if (outer.length === 0) return null;
  if (!isCounterClockwise(outer)) outer = reverseRing(outer);
  const holes: Ring[] = [];
  for (const h of footprint.holes) {
    let hole = cleanRing(quantizeRing(h), minSpacing);
    if (hole.length === 0) continue;
    if (isCounterClockwise(hole)) hole = reverseRing(hole);
    holes.push(hole);
  }
  return { outer, holes };
}

/** Even-odd point in ring test (points exactly on the boundary may go either way). */
export function pointInRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  const n = ring.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = ring[2 * i],
      yi = ring[2 * i + 1],
      xj = ring[2 * j],
      yj = ring[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * The axis-aligned plan box of flat points [x0, y0, x1, y1, …] — or, with `stride` 3, of xyz
 * positions (empty input: an inverted infinite box).
 */
export function flatBounds(points: ArrayLike<number>, stride = 2): BBox {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let k = 0; k + 1 < points.length; k += stride) {
    const x = points[k],
      y = points[k + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}

/** Length of flat points [x0, y0, x1, y1, …] as a polyline, or around them as a ring (`closed`). */
export function polylineLength(points: ArrayLike<number>, closed = false): number {
  const n = points.length >> 1;
  let len = 0;
  for (let i = 0; i < (closed ? n : n - 1); i++) {
    const j = (i + 1) % n;
    len += Math.hypot(points[2 * j] - points[2 * i], points[2 * j + 1] - points[2 * i + 1]);
  }
  return len;
}
