import type { Ring } from '../../types.ts';
import { ringCentroid } from '../../planar/polygon-checks.ts';

/**
 * An apex for a fan roof (pyramid, dome, onion): a point that sees every side of the footprint
 * from the inside, at least `clearance` metres from each side's line. The area centroid when it
 * qualifies, else the centroid of the footprint's kernel (the region seeing every side), else null
 * (the footprint is not star-shaped).
 */
export function starApex(outer: Ring, clearance = 0.05): [number, number] | null {
  const centroid = ringCentroid(outer);
  if (seesAllSides(outer, centroid[0], centroid[1], clearance)) return centroid;
  const kernel = kernelPolygon(outer);
  if (!kernel) return null;
  const apex = ringCentroid(kernel);
  return seesAllSides(outer, apex[0], apex[1], clearance) ? apex : null;
}

/** The point is on the inner side of every side's line, by at least `clearance`. */
export function seesAllSides(ring: Ring, x: number, y: number, clearance: number): boolean {
  const n = ring.length / 2;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ax = ring[2 * i],
      ay = ring[2 * i + 1];
    const dx = ring[2 * j] - ax,
      dy = ring[2 * j + 1] - ay;
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    if ((dx * (y - ay) - dy * (x - ax)) / len < clearance) return false;
  }
  return true;
}

/** Intersection of the inner half-planes of all sides of a counter-clockwise ring (null when empty). */
export function kernelPolygon(ring: Ring): Ring | null {
  const n = ring.length / 2;
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, ring[2 * i]);
    maxX = Math.max(maxX, ring[2 * i]);
    minY = Math.min(minY, ring[2 * i + 1]);
    maxY = Math.max(maxY, ring[2 * i + 1]);
  }
  let poly: number[] = [minX, minY, maxX, minY, maxX, maxY, minX, maxY];
  for (let i = 0; i < n && poly.length >= 6; i++) {
    const j = (i + 1) % n;
    const ax = ring[2 * i],
      ay = ring[2 * i + 1],
      dx = ring[2 * j] - ax,
      dy = ring[2 * j + 1] - ay;
    const side = (x: number, y: number) => dx * (y - ay) - dy * (x - ax);
    const out: number[] = [];
    const m = poly.length / 2;
    for (let k = 0; k < m; k++) {
      const px = poly[2 * k],
        py = poly[2 * k + 1];
      const qx = poly[2 * ((k + 1) % m)],
        qy = poly[2 * ((k + 1) % m) + 1];
      const sp = side(px, py),
        sq = side(qx, qy);
      if (sp >= 0) out.push(px, py);
      if ((sp > 0 && sq < 0) || (sp < 0 && sq > 0)) {
        const t = sp / (sp - sq);
        out.push(px + t * (qx - px), py + t * (qy - py));
      }
    }
    poly = out;
  }
  if (poly.length < 6) return null;
  let area2 = 0;
  for (let k = 0, m = poly.length / 2; k < m; k++) {
    const l = (k + 1) % m;
    area2 += poly[2 * k] * poly[2 * l + 1] - poly[2 * l] * poly[2 * k + 1];
  }
  return area2 > 1e-9 ? poly : null;
}
