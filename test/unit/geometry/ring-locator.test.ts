/**
 * RingLocator answers exactly as pointInRing (the same crossing test on the sides of the point's
 * band), on generated rings — large and small, self-touching, with level sides — and points on
 * vertices, on sides and anywhere.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RingLocator } from '../../../src/geometry/ring-locator.ts';
import { pointInRing } from '../../../src/geometry/ring.ts';

const coord = fc.integer({ min: -50, max: 50 }).map((v) => v / 2);
const ring = fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 120 }).map((pts) => pts.flat());

test('property: RingLocator.contains equals pointInRing (grid points, vertices, side midpoints)', () => {
  fc.assert(
    fc.property(ring, fc.array(fc.tuple(coord, coord), { maxLength: 40 }), (r, pts) => {
      const loc = new RingLocator(r);
      const probes: [number, number][] = [...pts];
      for (let k = 0; k < r.length; k += 2) {
        const m = (k + 2) % r.length;
        probes.push([r[k], r[k + 1]], [(r[k] + r[m]) / 2, (r[k + 1] + r[m + 1]) / 2]);
      }
      for (const [x, y] of probes) assert.equal(loc.contains(x, y), pointInRing(x, y, r), `at ${x},${y}`);
    }),
    { numRuns: 400 },
  );
});

test('property: on a large star-shaped ring with real-valued coordinates, RingLocator.contains equals pointInRing', () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 20, max: 200, noNaN: true }), { minLength: 30, maxLength: 400 }),
      fc.array(fc.tuple(fc.double({ min: -250, max: 250, noNaN: true }), fc.double({ min: -250, max: 250, noNaN: true })), { maxLength: 60 }),
      (radii, pts) => {
        const r: number[] = [];
        radii.forEach((rad, i) => {
          const a = (2 * Math.PI * i) / radii.length;
          r.push(1000 + rad * Math.cos(a), 2000 + rad * Math.sin(a));
        });
        const loc = new RingLocator(r);
        for (const [dx, dy] of pts) assert.equal(loc.contains(1000 + dx, 2000 + dy), pointInRing(1000 + dx, 2000 + dy, r));
      },
    ),
    { numRuns: 200 },
  );
});

test('a point just inside the top of a large ring is found (its band is the last)', () => {
  const r: number[] = [];
  for (let i = 0; i < 100; i++) r.push(i, 0);
  r.push(100, 0, 100, 10, 0, 10);
  const loc = new RingLocator(r);
  assert.equal(loc.contains(50, 10 - 1e-12), true);
  assert.equal(loc.contains(50, 10), false);
  assert.equal(loc.contains(50, 10 + 1e-9), false);
  assert.equal(loc.contains(50, -1e-9), false);
});
