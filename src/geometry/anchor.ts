import { pointInRing } from './ring.ts';
import { segmentsIntersect } from './segments.ts';
import type { Ring } from './types.ts';

/**
 * Where a feature is anchored for the one-owner rule of tiling (src/plan/tiling.ts ownerTileKey):
 * a point of the feature inside the request polygon, the same in every worker, so exactly one
 * tile builds the feature.
 */

function crossingPoint(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): [number, number] {
  const den = (bx - ax) * (dy - cy) - (by - ay) * (dx - cx);
  const t = ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / den;
  return [ax + t * (bx - ax), ay + t * (by - ay)];
}

/**
 * A point of the feature that lies in the polygon, or null when the feature does not meet it.
 * Tried in order: the feature's first vertex inside the polygon, the polygon's first vertex inside
 * the feature, the first crossing of their boundaries. `featureRings` are the feature's rings
 * (outer first) or, for a line, its single polyline with `closed = false`.
 */
export function featureAnchor(featureRings: Ring[], polygon: Ring, closed = true): [number, number] | null {
  const outer = featureRings[0];
  if (!outer || outer.length < 2) return null;
  for (let k = 0; k < outer.length; k += 2) {
    if (pointInRing(outer[k], outer[k + 1], polygon)) return [outer[k], outer[k + 1]];
  }
  if (closed && outer.length >= 6) {
    for (let k = 0; k < polygon.length; k += 2) {
      const x = polygon[k],
        y = polygon[k + 1];
      if (pointInRing(x, y, outer) && !featureRings.slice(1).some((h) => pointInRing(x, y, h))) return [x, y];
    }
  }
  const fn = outer.length / 2,
    pn = polygon.length / 2;
  const segs = closed ? fn : fn - 1;
  for (let a = 0; a < segs; a++) {
    const b = (a + 1) % fn;
    for (let c = 0; c < pn; c++) {
      const d = (c + 1) % pn;
      const args = [
        outer[2 * a],
        outer[2 * a + 1],
        outer[2 * b],
        outer[2 * b + 1],
        polygon[2 * c],
        polygon[2 * c + 1],
        polygon[2 * d],
        polygon[2 * d + 1],
      ] as const;
      if (segmentsIntersect(...args)) {
        const den = (args[2] - args[0]) * (args[7] - args[5]) - (args[3] - args[1]) * (args[6] - args[4]);
        return den === 0 ? [args[0], args[1]] : crossingPoint(...args);
      }
    }
  }
  return null;
}
