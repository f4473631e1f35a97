import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { siteRing } from '../../../../src/geometry/crop/site.ts';
import { pointInRing, ringArea } from '../../../../src/geometry/ring.ts';
import type { Ring } from '../../../../src/geometry/types.ts';

const POLYGON: Ring = [0, 0, 100, 0, 100, 100, 0, 100];
const rect = (x0: number, y0: number, x1: number, y1: number): Ring => [x0, y0, x1, y0, x1, y1, x0, y1];

test('site: the polygon plus the outlines crossing it; outlines inside or outside leave it as it is', () => {
  assert.deepEqual(siteRing(POLYGON, [rect(10, 10, 20, 20), rect(120, 10, 130, 20)]), POLYGON);
  const site = siteRing(POLYGON, [rect(90, 40, 110, 60)]);
  assert.ok(Math.abs(ringArea(site) - (10000 + 200)) < 1e-6, `${ringArea(site)}`);
  assert.ok(pointInRing(105, 50, site) && !pointInRing(105, 70, site));
  // a U-shaped building standing on the edge closes a courtyard against the polygon: site too
  const u = [40, 95, 45, 95, 45, 120, 55, 120, 55, 95, 60, 95, 60, 125, 40, 125];
  const closed = siteRing(POLYGON, [u]);
  assert.ok(pointInRing(50, 110, closed) && pointInRing(42, 122, closed) && !pointInRing(30, 110, closed));
});

test('site: contains the polygon and exactly the outside parts of disjoint crossing outlines (fast-check)', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 0, max: 8 }), { minLength: 1, maxLength: 5 }),
      fc.double({ min: 1, max: 30, noNaN: true }),
      fc.double({ min: 1, max: 30, noNaN: true }),
      (slots, inside, outside) => {
        // each outline crosses the east edge in its own 10 m slot
        const outlines = slots.map((s) => rect(100 - inside, s * 11 + 1, 100 + outside, s * 11 + 9));
        const site = siteRing(POLYGON, outlines);
        const want = 10000 + slots.length * 8 * outside;
        // the site's corners are on the millimetre grid: its area may move by half a millimetre times its perimeter
        const tolerance = 0.0005 * (400 + slots.length * 2 * outside);
        assert.ok(Math.abs(ringArea(site) - want) < tolerance, `${ringArea(site)} vs ${want}`);
        for (let k = 0; k < 50; k++) assert.ok(pointInRing(1 + ((k * 37) % 98), 1 + ((k * 53) % 98), site));
      },
    ),
  );
});
