import { Clipper, FillRule, TriangulateResult, type Paths64 } from 'clipper2-ts';
import type { Footprint } from '../types.ts';
import { CLIPPER_SCALE } from '../planar/clipper-paths.ts';
import { piecePaths } from '../planar/pieces.ts';
import { triangleArea2 } from './slivers.ts';

/**
 * The last resort for a polygon neither rings.ts nor earcut covers (needles a millimetre wide,
 * rings touching themselves): Clipper2's constrained Delaunay triangulation on the millimetre grid,
 * where Clipper's pieces live.
 */

/**
 * Triangles of the footprint by Clipper2 (Delaunay) as counter-clockwise indices into `coords`,
 * whose ring vertices are looked up by their millimetre position (points Clipper adds are
 * appended to `coords`); null when it fails.
 *
 * The triangles must cover the footprint's area: on a ring that crosses itself (a tangle a few
 * millimetres across left by a cut) Clipper's triangulation can "succeed" with triangles laid
 * over each other and outside the ring — one such filler piece in Monaco covered 756 m² for its
 * 433 m². Such a ring is tried again as Clipper's union of itself (which unties the tangle), and
 * a result that still does not cover the area is refused.
 */
export function clipperTriangles(fp: Footprint, coords: number[]): number[] | null {
  const paths = piecePaths([fp]);
  const expected = Math.abs(Clipper.areaPaths(paths)) / (CLIPPER_SCALE * CLIPPER_SCALE);
  const start = coords.length;
  for (const attempt of [paths, Clipper.union(paths, FillRule.NonZero)]) {
    const triangles = triangulatePaths(attempt, coords);
    if (triangles && covers(coords, triangles, expected)) return triangles;
    coords.length = start;
  }
  return null;
}

/** Whether the triangles' area is the expected one (to 0.1 % and a square centimetre). */
function covers(coords: readonly number[], triangles: readonly number[], expected: number): boolean {
  let area = 0;
  for (let t = 0; t < triangles.length; t += 3) area += triangleArea2(coords, triangles[t], triangles[t + 1], triangles[t + 2]) / 2;
  return Math.abs(area - expected) <= 1e-3 * expected + 1e-4;
}

function triangulatePaths(paths: Paths64, coords: number[]): number[] | null {
  const { result, solution } = Clipper.triangulate(paths, true);
  if (result !== TriangulateResult.success) return null;
  const index = new Map<number, number>();
  const key = (x: number, y: number) => x * 4294967296 + y;
  for (let i = coords.length / 2 - 1; i >= 0; i--) index.set(key(Math.round(coords[2 * i] * CLIPPER_SCALE), Math.round(coords[2 * i + 1] * CLIPPER_SCALE)), i);
  const out: number[] = [];
  for (const tri of solution) {
    if (tri.length !== 3) continue;
    const ids = tri.map((p) => {
      let i = index.get(key(p.x, p.y));
      if (i === undefined) {
        i = coords.length / 2;
        coords.push(p.x / CLIPPER_SCALE, p.y / CLIPPER_SCALE);
        index.set(key(p.x, p.y), i);
      }
      return i;
    });
    if (triangleArea2(coords, ids[0], ids[1], ids[2]) < 0) out.push(ids[0], ids[2], ids[1]);
    else out.push(ids[0], ids[1], ids[2]);
  }
  return out;
}
