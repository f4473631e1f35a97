import earcut from 'earcut';
import type { Footprint } from './types.ts';
import { signedArea2 } from './ring.ts';

/** Triangulated polygon: `coords` holds all ring vertices (outer first, then holes), `triangles` indexes them. */
export interface Triangulation {
  coords: number[];
  /** Triangles as vertex-index triples into `coords`, each counter-clockwise (x east, y north). */
  triangles: number[];
  /** True when the triangles cover the polygon's area exactly (false for self-intersecting input). */
  exact: boolean;
}

/** Triangulates a polygon with holes (earcut) and orients every triangle counter-clockwise. */
export function triangulateFootprint(footprint: Footprint): Triangulation {
  const coords = footprint.outer.slice();
  const holeStarts: number[] = [];
  for (const hole of footprint.holes) {
    holeStarts.push(coords.length / 2);
    for (const v of hole) coords.push(v);
  }
  const raw = earcut(coords, holeStarts, 2);
  const triangles: number[] = [];
  let covered = 0;
  for (let t = 0; t < raw.length; t += 3) {
    const a = raw[t], b = raw[t + 1], c = raw[t + 2];
    const area2 = (coords[2 * b] - coords[2 * a]) * (coords[2 * c + 1] - coords[2 * a + 1]) -
      (coords[2 * b + 1] - coords[2 * a + 1]) * (coords[2 * c] - coords[2 * a]);
    if (area2 === 0) continue;
    covered += Math.abs(area2);
    if (area2 > 0) triangles.push(a, b, c);
    else triangles.push(a, c, b);
  }
  let expected = Math.abs(signedArea2(footprint.outer));
  for (const hole of footprint.holes) expected -= Math.abs(signedArea2(hole));
  const exact = Math.abs(covered - expected) <= 1e-6 * Math.max(expected, 1);
  return { coords, triangles, exact };
}
