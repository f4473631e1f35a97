import earcut from 'earcut';
import type { Footprint } from '../types.ts';
import { signedArea2 } from '../ring.ts';
import { flipSlivers, triangleArea2 } from './slivers.ts';

/**
 * The plain triangulation of a polygon with holes: earcut, every triangle turned counter-clockwise,
 * slivers flipped away. earcut skips vertices on a straight side, and on a self-crossing polygon
 * the triangles do not cover it exactly (`exact` says so): the cheap, general answer where every
 * ring vertex need not be a mesh vertex, and the fallback where rings.ts refuses a polygon.
 */

/**
 * Below this doubled area (m²) a triangle is a sliver: a corner lies on the opposite edge. Such a
 * triangle is flipped away (slivers.ts) rather than dropped, which would open the mesh.
 */
const SLIVER_AREA2 = 2e-6;

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
    const a = raw[t],
      b = raw[t + 1],
      c = raw[t + 2];
    const area2 = triangleArea2(coords, a, b, c);
    if (area2 === 0) continue;
    covered += Math.abs(area2);
    if (area2 > 0) triangles.push(a, b, c);
    else triangles.push(a, c, b);
  }
  flipSlivers(coords, triangles, SLIVER_AREA2);
  let expected = Math.abs(signedArea2(footprint.outer));
  for (const hole of footprint.holes) expected -= Math.abs(signedArea2(hole));
  const exact = Math.abs(covered - expected) <= 1e-6 * Math.max(expected, 1);
  return { coords, triangles, exact };
}
