import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { hasCrossingSides } from '../../../../../src/geometry/planar/crossing-sides.ts';

// hasCrossingSides sweeps sides sorted by their left end (a packed numeric sort on the millimetre
// grid, a comparator sort off it): every pair it reports must be the pairs a brute force finds.

function cross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const s = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => Math.sign((qx - px) * (ry - py) - (qy - py) * (rx - px));
  const between = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) => (rx - px) * (qx - rx) + (ry - py) * (qy - ry) > 0;
  const d1 = s(cx, cy, dx, dy, ax, ay),
    d2 = s(cx, cy, dx, dy, bx, by),
    d3 = s(ax, ay, bx, by, cx, cy),
    d4 = s(ax, ay, bx, by, dx, dy);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (
    (d1 === 0 && between(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && between(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && between(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && between(ax, ay, bx, by, dx, dy))
  );
}

function bruteForce(rings: number[][]): string[] {
  const sides: number[][] = [];
  for (const r of rings)
    for (let i = 0, n = r.length / 2; i < n; i++) {
      const j = (i + 1) % n;
      sides.push([r[2 * i], r[2 * i + 1], r[2 * j], r[2 * j + 1]]);
    }
  const out: string[] = [];
  for (let a = 0; a < sides.length; a++)
    for (let b = a + 1; b < sides.length; b++) {
      const [p, q] = [sides[a], sides[b]];
      if (!cross(p[0], p[1], p[2], p[3], q[0], q[1], q[2], q[3])) continue;
      out.push(
        [Math.min(p[0], p[2], q[0], q[2]), Math.min(p[1], p[3], q[1], q[3]), Math.max(p[0], p[2], q[0], q[2]), Math.max(p[1], p[3], q[1], q[3])].join(','),
      );
    }
  return out.sort();
}

function reported(rings: number[][]): string[] {
  const spots: number[] = [];
  hasCrossingSides(rings, spots);
  const out: string[] = [];
  for (let i = 0; i < spots.length; i += 4) out.push(spots.slice(i, i + 4).join(','));
  return out.sort();
}

test('crossing sides: the pairs of a brute force, on the millimetre grid and off it', () => {
  // off the grid: thirds of a millimetre (many equal left ends either way)
  const coordinate = (grid: boolean) => fc.integer({ min: -50, max: 50 }).map((v) => (grid ? v / 1000 : v / 3000));
  for (const grid of [true, false]) {
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(coordinate(grid), coordinate(grid)), { minLength: 3, maxLength: 14 }), { minLength: 1, maxLength: 3 }), (rs) => {
        const rings = rs.map((r) => r.flat());
        const expected = bruteForce(rings);
        assert.deepEqual(reported(rings), expected);
        assert.equal(hasCrossingSides(rings), expected.length > 0);
      }),
      { numRuns: 300, seed: 8 },
    );
  }
});
