/**
 * ringsAreDisjointAndSimple (typed arrays, sides sorted by index) answers exactly as the plain
 * pairwise definition below on generated rings: crossing, touching, spiked, collinear-overlapping
 * and disjoint ones, with holes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ringsAreDisjointAndSimple } from '../../../src/geometry/planar/polygon-checks.ts';
import { segmentsIntersect } from '../../../src/geometry/segments.ts';

/** The definition: no two sides touch or cross, except neighbours of one ring at their shared corner (which must not fold back). */
function reference(rings: number[][]): boolean {
  const sides: { r: number; i: number; n: number; s: number[] }[] = [];
  rings.forEach((ring, r) => {
    const n = ring.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      sides.push({ r, i, n, s: [ring[2 * i], ring[2 * i + 1], ring[2 * j], ring[2 * j + 1]] });
    }
  });
  for (let a = 0; a < sides.length; a++) {
    for (let b = a + 1; b < sides.length; b++) {
      const s = sides[a],
        t = sides[b];
      if (s.r === t.r) {
        const d = Math.abs(s.i - t.i);
        if (d === 1 || d === s.n - 1) {
          const ax = s.s[2] - s.s[0],
            ay = s.s[3] - s.s[1],
            bx = t.s[2] - t.s[0],
            by = t.s[3] - t.s[1];
          if (s.n === 3 || !(ax * by - ay * bx === 0 && ax * bx + ay * by < 0)) continue;
          return false;
        }
      }
      if (segmentsIntersect(s.s[0], s.s[1], s.s[2], s.s[3], t.s[0], t.s[1], t.s[2], t.s[3])) return false;
    }
  }
  return true;
}

const coord = fc.integer({ min: 0, max: 12 });
const ring = fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 9 }).map((p) => p.flat());

test('property: ringsAreDisjointAndSimple equals the pairwise definition', () => {
  fc.assert(
    fc.property(fc.array(ring, { minLength: 1, maxLength: 3 }), (rings) => {
      assert.equal(ringsAreDisjointAndSimple(rings), reference(rings));
    }),
    { numRuns: 3000 },
  );
});

test('a square with a square hole is simple; a bow tie and a hole touching the outer ring are not', () => {
  assert.equal(
    ringsAreDisjointAndSimple([
      [0, 0, 10, 0, 10, 10, 0, 10],
      [3, 3, 3, 7, 7, 7, 7, 3],
    ]),
    true,
  );
  assert.equal(ringsAreDisjointAndSimple([[0, 0, 10, 10, 10, 0, 0, 10]]), false);
  assert.equal(
    ringsAreDisjointAndSimple([
      [0, 0, 10, 0, 10, 10, 0, 10],
      [0, 3, 3, 7, 7, 3],
    ]),
    false,
  );
});
