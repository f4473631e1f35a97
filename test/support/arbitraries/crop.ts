/**
 * fast-check generators for the cropScene tests: crop polygons that are concave (star-shaped with
 * random radii), carry near-collinear vertices (a vertex 0–5 mm off the straight line between its
 * neighbours) and thin notches, given either way round; and points on their boundary to put
 * buildings across it.
 */
import fc from 'fast-check';
import type { Ring } from '../../../src/geometry/types.ts';

const len = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });

/** Concave star polygons (radii 25–80 m) with optional near-collinear vertices, either orientation. */
export const cropPolygonArbitrary: fc.Arbitrary<Ring> = fc
  .record({
    weights: fc.array(len(1, 3), { minLength: 4, maxLength: 12 }),
    radii: fc.array(len(25, 80), { minLength: 12, maxLength: 12 }),
    collinear: fc.array(fc.tuple(fc.nat(11), len(-0.005, 0.005), len(0.2, 0.8)), { maxLength: 4 }),
    rotate: len(0, 2 * Math.PI),
    reverse: fc.boolean(),
  })
  .map(({ weights, radii, collinear, rotate, reverse }) => {
    const total = weights.reduce((a, b) => a + b, 0);
    let acc = 0;
    const pts: number[] = [];
    weights.forEach((w, k) => {
      const t = rotate + (acc / total) * 2 * Math.PI;
      acc += w;
      pts.push(radii[k] * Math.cos(t), radii[k] * Math.sin(t));
    });
    // near-collinear vertices: inserted on an edge, a few millimetres off it (highest index first)
    const n = pts.length / 2;
    const inserts = collinear.map(([e, off, t]) => [e % n, off, t] as const).sort((a, b) => b[0] - a[0]);
    const seen = new Set<number>();
    for (const [e, off, t] of inserts) {
      if (seen.has(e)) continue;
      seen.add(e);
      const j = (e + 1) % n;
      const ax = pts[2 * e],
        ay = pts[2 * e + 1],
        bx = pts[2 * j],
        by = pts[2 * j + 1];
      const l = Math.hypot(bx - ax, by - ay);
      pts.splice(2 * e + 2, 0, ax + (bx - ax) * t - ((by - ay) / l) * off, ay + (by - ay) * t + ((bx - ax) / l) * off);
    }
    if (!reverse) return pts;
    const rev: number[] = [];
    for (let i = pts.length - 2; i >= 0; i -= 2) rev.push(pts[i], pts[i + 1]);
    return rev;
  });

/** A point on edge `edge` (mod n) of the ring at parameter t. */
export function boundaryPoint(ring: Ring, edge: number, t: number): [number, number] {
  const n = ring.length / 2,
    i = edge % n,
    j = (i + 1) % n;
  return [ring[2 * i] + (ring[2 * j] - ring[2 * i]) * t, ring[2 * i + 1] + (ring[2 * j + 1] - ring[2 * i + 1]) * t];
}

/** Moves a ring so that its box centre lands on (x, y). */
export function centreAt(rings: Ring[], x: number, y: number): Ring[] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < rings[0].length; i += 2) {
    minX = Math.min(minX, rings[0][i]);
    maxX = Math.max(maxX, rings[0][i]);
    minY = Math.min(minY, rings[0][i + 1]);
    maxY = Math.max(maxY, rings[0][i + 1]);
  }
  const dx = x - (minX + maxX) / 2,
    dy = y - (minY + maxY) / 2;
  return rings.map((r) => r.map((v, k) => v + (k % 2 === 0 ? dx : dy)));
}
