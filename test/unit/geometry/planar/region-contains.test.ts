/**
 * regionSide (planar/region-contains.ts) answers "inside" or "outside" only when a boolean sweep
 * agrees: over generated regions (unions of slanted quadrilaterals, with holes and islands) and
 * polygons, an "inside" polygon has nothing outside the region and an "outside" one nothing in it.
 * And it does decide the plain cases, so it saves the sweeps it is for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Clipper, FillRule, type Path64, type Paths64 } from 'clipper2-ts';
import { regionIndex, regionSide, segmentsMeet } from '../../../../src/geometry/planar/region-contains.ts';

const S = 1000;

function square(x: number, y: number, w: number, h = w): Path64 {
  return [
    { x: x * S, y: y * S },
    { x: (x + w) * S, y: y * S },
    { x: (x + w) * S, y: (y + h) * S },
    { x: x * S, y: (y + h) * S },
  ];
}

/** A quadrilateral turned by `turn` about its centre, on the grid. */
function quad([x, y, w, h, turn]: [number, number, number, number, number]): Path64 {
  const c = Math.cos(turn),
    s = Math.sin(turn);
  const cx = x + w / 2,
    cy = y + h / 2;
  const out: Path64 = [];
  for (const [u, v] of [
    [-w / 2, -h / 2],
    [w / 2, -h / 2],
    [w / 2, h / 2],
    [-w / 2, h / 2],
  ])
    out.push({ x: Math.round((cx + u * c - v * s) * S), y: Math.round((cy + u * s + v * c) * S) });
  return out;
}

const quadArb = fc.tuple(
  fc.integer({ min: 0, max: 80 }),
  fc.integer({ min: 0, max: 80 }),
  fc.integer({ min: 1, max: 30 }),
  fc.integer({ min: 1, max: 30 }),
  fc.double({ min: 0, max: Math.PI, noNaN: true }),
);

const area = (paths: Paths64) => Math.abs(Clipper.areaPaths(paths)) / (S * S);

/** Each polygon of a union (outer ring with the holes inside it), as regionSide takes them. */
function polygonsOf(paths: Paths64): Paths64[] {
  const outers = paths.filter((p) => Clipper.area(p) > 0);
  const holes = paths.filter((p) => Clipper.area(p) < 0);
  return outers.map((o) => [o, ...holes.filter((h) => Clipper.pointInPolygon(h[0], o) !== 2)]);
}

test('property: "inside" and "outside" agree with the sweep', () => {
  let decided = 0,
    asked = 0;
  fc.assert(
    fc.property(fc.array(quadArb, { minLength: 1, maxLength: 12 }), fc.array(quadArb, { minLength: 1, maxLength: 12 }), (regionQuads, polygonQuads) => {
      // a region with holes: the union of some quadrilaterals less others
      const plus = Clipper.union(regionQuads.slice(0, Math.ceil(regionQuads.length / 2)).map(quad), FillRule.NonZero);
      const minus = regionQuads.slice(Math.ceil(regionQuads.length / 2)).map((q) => quad([q[0], q[1], q[2] / 3, q[3] / 3, q[4]]));
      const region = Clipper.difference(plus, minus, FillRule.NonZero);
      const index = regionIndex(region);
      for (const polygon of polygonsOf(Clipper.union(polygonQuads.map(quad), FillRule.NonZero))) {
        asked++;
        const side = regionSide(index, polygon);
        if (side === 'unknown') continue;
        decided++;
        if (side === 'inside') assert.ok(area(Clipper.difference(polygon, region, FillRule.NonZero)) < 1e-6, 'an "inside" polygon lies in the region');
        else assert.ok(area(Clipper.intersect(polygon, region, FillRule.NonZero)) < 1e-6, 'an "outside" polygon lies off the region');
      }
    }),
    { numRuns: 300 },
  );
  assert.ok(decided > asked / 10, `decided ${decided} of ${asked}`);
});

test('the plain cases: well inside, far outside, touching, a hole of the region inside, an island of it inside', () => {
  const big = regionIndex([square(0, 0, 100)]);
  assert.equal(regionSide(big, [square(10, 10, 5)]), 'inside');
  assert.equal(regionSide(big, [square(200, 10, 5)]), 'outside');
  assert.equal(regionSide(big, [square(95, 10, 5)]), 'unknown', "a side on the region's side");
  assert.equal(regionSide(big, [square(90, 10, 20)]), 'unknown', "across the region's side");
  const holed = regionIndex([square(0, 0, 100), square(40, 40, 10).reverse()]);
  assert.equal(regionSide(holed, [square(30, 30, 30)]), 'unknown', "the region's hole inside the polygon");
  assert.equal(regionSide(holed, [square(42, 42, 2)]), 'outside', 'in the hole');
  const island = regionIndex([square(40, 40, 10)]);
  assert.equal(regionSide(island, [square(30, 30, 30)]), 'unknown', "the region's island inside the polygon");
  assert.equal(regionSide(island, [square(0, 0, 100), square(35, 35, 20).reverse()]), 'outside', "the island in the polygon's hole");
  assert.equal(regionSide(regionIndex([]), [square(0, 0, 1)]), 'outside', 'an empty region');
});

test('segments meet when they cross, touch at an end or overlap along a stretch; not when apart or parallel apart', () => {
  assert.ok(segmentsMeet(0, 0, 10, 10, 0, 10, 10, 0));
  assert.ok(segmentsMeet(0, 0, 10, 0, 10, 0, 20, 5));
  assert.ok(segmentsMeet(0, 0, 10, 0, 5, 0, 20, 0));
  assert.ok(segmentsMeet(0, 0, 10, 0, 5, 0, 5, 7), 'a T');
  assert.ok(!segmentsMeet(0, 0, 10, 0, 11, 0, 20, 0), 'collinear apart');
  assert.ok(!segmentsMeet(0, 0, 10, 0, 0, 1, 10, 1), 'parallel');
  assert.ok(!segmentsMeet(0, 0, 10, 10, 6, 5, 20, 5), 'would cross if longer');
});
