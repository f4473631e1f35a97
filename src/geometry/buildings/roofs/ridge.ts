import type { Ring } from '../../types.ts';
import type { RoofSpec } from './types.ts';

/**
 * Which way a roof runs. OSM's `roof:direction` is the compass direction the roof slope faces
 * (downhill, degrees clockwise from north); a ridge runs across it. Without it, `roof:orientation`
 * says whether the ridge runs along (default) or across the longest side of the footprint, taken
 * from its minimum-area bounding rectangle.
 */

export interface RoofAxes {
  /** Unit vector (x east, y north) across the ridge: the direction the main slope faces. */
  across: [number, number];
  /** Unit vector along the ridge. */
  along: [number, number];
  /** What decided the axes. */
  source: 'direction' | 'orientation' | 'longest side';
}

export interface BoundingRectangle {
  /** Unit vector along the rectangle's longer side. */
  axis: [number, number];
  length: number;
  width: number;
  area: number;
}

/** Convex hull (counter-clockwise, no straight corners) of a flat point list. */
export function convexHull(ring: Ring): Ring {
  const n = ring.length / 2;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => ring[2 * a] - ring[2 * b] || ring[2 * a + 1] - ring[2 * b + 1]);
  const cross = (o: number, a: number, b: number) =>
    (ring[2 * a] - ring[2 * o]) * (ring[2 * b + 1] - ring[2 * o + 1]) - (ring[2 * a + 1] - ring[2 * o + 1]) * (ring[2 * b] - ring[2 * o]);
  const lower: number[] = [];
  for (const i of idx) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], i) <= 0) lower.pop();
    lower.push(i);
  }
  const upper: number[] = [];
  for (let k = idx.length - 1; k >= 0; k--) {
    const i = idx[k];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], i) <= 0) upper.pop();
    upper.push(i);
  }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
  return hull.flatMap((i) => [ring[2 * i], ring[2 * i + 1]]);
}

/** Minimum-area bounding rectangle (one side is collinear with a hull side). */
export function minimumAreaRectangle(ring: Ring): BoundingRectangle {
  const hull = convexHull(ring);
  const n = hull.length / 2;
  let best: BoundingRectangle = { axis: [1, 0], length: 0, width: 0, area: Infinity };
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const dx = hull[2 * j] - hull[2 * i],
      dy = hull[2 * j + 1] - hull[2 * i + 1];
    const len = Math.hypot(dx, dy);
    if (len === 0) continue;
    const ux = dx / len,
      uy = dy / len;
    let minU = Infinity,
      maxU = -Infinity,
      minV = Infinity,
      maxV = -Infinity;
    for (let k = 0; k < n; k++) {
      const x = hull[2 * k],
        y = hull[2 * k + 1];
      const u = x * ux + y * uy,
        v = -x * uy + y * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const a = maxU - minU,
      b = maxV - minV;
    // Prefer a clearly smaller area; among near-equal ones keep the first (stable for squares).
    if (a * b < best.area * (1 - 1e-9)) {
      best = a >= b ? { axis: [ux, uy], length: a, width: b, area: a * b } : { axis: [-uy, ux], length: b, width: a, area: a * b };
    }
  }
  return best;
}

/** Unit vector of a compass bearing (degrees clockwise from north) in x east, y north. */
export function bearingVector(degrees: number): [number, number] {
  const r = (degrees * Math.PI) / 180;
  return [Math.sin(r), Math.cos(r)];
}

/** The axes of a roof on a footprint, honouring roof:direction, then roof:orientation, then the longest side. */
export function roofAxes(outer: Ring, roof: Pick<RoofSpec, 'direction' | 'orientation'>): RoofAxes {
  if (roof.direction !== undefined && Number.isFinite(roof.direction)) {
    const across = bearingVector(roof.direction);
    return { across, along: [across[1], -across[0]], source: 'direction' };
  }
  const rect = minimumAreaRectangle(outer);
  let along: [number, number] = rect.axis;
  if (roof.orientation === 'across') along = [-along[1], along[0]];
  // Face the main slope southwards (then eastwards) so the default is stable and sun-facing.
  let across: [number, number] = [along[1], -along[0]];
  if (across[1] > 1e-9 || (Math.abs(across[1]) <= 1e-9 && across[0] < 0)) across = [-across[0], -across[1]];
  along = [-across[1], across[0]];
  return { across, along, source: roof.orientation ? 'orientation' : 'longest side' };
}

/** Half the footprint's width (half the short side of its minimum-area rectangle): the run of a roof slope. */
export function footprintHalfWidth(outer: Ring): number {
  return minimumAreaRectangle(outer).width / 2;
}
