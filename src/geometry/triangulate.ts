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
  flipSlivers(coords, triangles);
  let expected = Math.abs(signedArea2(footprint.outer));
  for (const hole of footprint.holes) expected -= Math.abs(signedArea2(hole));
  const exact = Math.abs(covered - expected) <= 1e-6 * Math.max(expected, 1);
  return { coords, triangles, exact };
}

/** Twice the signed area of triangle (a, b, c) of `coords`. */
function area2(coords: number[], a: number, b: number, c: number): number {
  return (coords[2 * b] - coords[2 * a]) * (coords[2 * c + 1] - coords[2 * a + 1]) -
    (coords[2 * b + 1] - coords[2 * a + 1]) * (coords[2 * c] - coords[2 * a]);
}

/** Below this area (m², doubled) a triangle is a sliver: a corner lies on the opposite edge. */
const SLIVER_AREA2 = 2e-6;

/**
 * earcut may cut a diagonal straight through a third vertex, leaving a zero-area sliver. Such a
 * triangle is removed by flipping its longest edge with the neighbouring triangle, which keeps the
 * triangulation watertight (dropping it would open the mesh).
 */
function flipSlivers(coords: number[], tris: number[]): void {
  const owner = new Map<string, number>();
  const edgeKey = (u: number, v: number) => `${u},${v}`;
  const register = (t: number, on: boolean) => {
    for (let k = 0; k < 3; k++) {
      const key = edgeKey(tris[3 * t + k], tris[3 * t + ((k + 1) % 3)]);
      if (on) owner.set(key, t); else owner.delete(key);
    }
  };
  const count = tris.length / 3;
  for (let t = 0; t < count; t++) register(t, true);
  for (let pass = 0; pass < 3; pass++) {
    let flipped = false;
    for (let t = 0; t < count; t++) {
      if (area2(coords, tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]) >= SLIVER_AREA2) continue;
      // the longest edge u→v, with w the corner lying (almost) on it
      let best = 0, bestLength = -1;
      for (let k = 0; k < 3; k++) {
        const u = tris[3 * t + k], v = tris[3 * t + ((k + 1) % 3)];
        const len = (coords[2 * v] - coords[2 * u]) ** 2 + (coords[2 * v + 1] - coords[2 * u + 1]) ** 2;
        if (len > bestLength) { bestLength = len; best = k; }
      }
      const u = tris[3 * t + best], v = tris[3 * t + ((best + 1) % 3)], w = tris[3 * t + ((best + 2) % 3)];
      const n = owner.get(edgeKey(v, u));
      if (n === undefined) continue;
      const d = [tris[3 * n], tris[3 * n + 1], tris[3 * n + 2]].find((x) => x !== u && x !== v)!;
      const a1 = area2(coords, w, u, d), a2 = area2(coords, w, d, v);
      if (a1 < SLIVER_AREA2 || a2 < SLIVER_AREA2) continue;
      register(t, false); register(n, false);
      tris.splice(3 * t, 3, w, u, d);
      tris.splice(3 * n, 3, w, d, v);
      register(t, true); register(n, true);
      flipped = true;
    }
    if (!flipped) break;
  }
}
