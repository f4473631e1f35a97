import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assignPartsToOutlines, footprintArea, outlineRemainder } from '../../../../src/geometry/buildings/parts.ts';
import { normalizeFootprint } from '../../../../src/geometry/ring.ts';
import type { Footprint } from '../../../../src/geometry/types.ts';

const rect = (x0: number, y0: number, x1: number, y1: number): Footprint => normalizeFootprint({ outer: [x0, y0, x1, y0, x1, y1, x0, y1], holes: [] })!;

test('parts covering their outline leave nothing of it; uncovered area stays', () => {
  const outline = rect(0, 0, 20, 10);
  assert.deepEqual(outlineRemainder([outline], [rect(0, 0, 10, 10), rect(10, 0, 20, 10)]), []);
  // parts mapped a few centimetres short of the outline edge: the sliver is mapping slop, not building
  assert.deepEqual(outlineRemainder([outline], [rect(0.05, 0.03, 10, 9.96), rect(10, 0.03, 19.97, 9.96)]), []);
  // a real courtyard-side wing without a part stays, with the outline's shape
  const rest = outlineRemainder([outline], [rect(0, 0, 12, 10)]);
  assert.equal(rest.length, 1);
  assert.ok(Math.abs(footprintArea(rest[0]) - 80) < 1e-6);
});

test('the remainder never overlaps a part and never leaves the outline (property)', () => {
  const box = fc
    .tuple(fc.integer({ min: 0, max: 90 }), fc.integer({ min: 0, max: 90 }), fc.integer({ min: 2, max: 40 }), fc.integer({ min: 2, max: 40 }))
    .map(([x, y, w, h]) => rect(x, y, Math.min(100, x + w), Math.min(100, y + h)));
  fc.assert(
    fc.property(fc.array(box, { minLength: 1, maxLength: 6 }), (parts) => {
      const outline = rect(0, 0, 100, 100);
      const rest = outlineRemainder([outline], parts, { minWidth: 0.5, minShare: 0 });
      const covered = (x: number, y: number) => parts.some((p) => inside(p, x, y));
      for (let x = 0.25; x < 100; x += 2.5)
        for (let y = 0.25; y < 100; y += 2.5) {
          const inRest = rest.some((r) => inside(r, x, y));
          if (inRest) assert.ok(!covered(x, y), `remainder overlaps a part at ${x},${y}`);
          // away from every part by more than the sliver width, uncovered area must be kept
          const clear = !parts.some((p) => inside(grow(p, 0.6), x, y));
          if (clear) assert.ok(inRest, `uncovered area at ${x},${y} was dropped`);
        }
      const restArea = rest.reduce((a, f) => a + footprintArea(f), 0);
      assert.ok(restArea <= 10000 + 1e-6);
    }),
    { numRuns: 100 },
  );
});

test('parts whose edges stray a fraction of a millimetre across a tilted outline keep its uncovered wing', () => {
  // A 46 × 20 m outline in a building's stable frame (slightly turned), three parts along its
  // west 31 m whose corners on the outline's long edges lie up to 0.3 mm off them: the east
  // 15 × 20 m stays the outline's. (Clipper left a wrongly wound sliver here that lost it.)
  const ring = (s: string) => normalizeFootprint({ outer: s.split(' ').map(Number), holes: [] })!;
  const outline = ring('-402.845 555.547 -356.845 555.544 -356.844 575.544 -402.844 575.547');
  const parts = [
    '-402.845 555.547 -391.845 555.546 -391.844 575.546 -402.844 575.547',
    '-391.845 555.546 -387.845 555.546 -387.844 575.546 -391.844 575.546',
    '-387.845 555.546 -371.845 555.545 -371.844 575.545 -387.844 575.546',
  ].map(ring);
  const rest = outlineRemainder([outline], parts);
  assert.equal(rest.length, 1);
  assert.ok(Math.abs(footprintArea(rest[0]) - 300) < 0.05, `${footprintArea(rest[0])} m²`);
});

test('an uncovered wing whose difference comes out with a hairline spike along a side is kept', () => {
  // A 24 × 20 m outline with parts over x 3–21 m, through lon/lat into a building's stable frame
  // (rings as the buildings family builds them): Clipper writes the east wing 21–24 m with a
  // zero-width spike back along its north side, which the next boolean operation turned into a
  // 3 mm² sliver instead of the wing. Both 3 × 20 m wings stay.
  const ring = (s: string) => normalizeFootprint({ outer: s.split(' ').map(Number), holes: [] })!;
  const outline = ring('-402.845 555.547 -378.845 555.545 -378.844 575.545 -402.844 575.547');
  const parts = [
    '-399.845 555.547 -396.845 555.546 -396.844 575.546 -399.844 575.547',
    '-396.845 555.546 -381.845 555.545 -381.844 575.545 -396.844 575.546',
  ].map(ring);
  const rest = outlineRemainder([outline], parts);
  const west = rest.filter((f) => f.outer.every((v, i) => i % 2 === 1 || v < -399)),
    east = rest.filter((f) => f.outer.every((v, i) => i % 2 === 1 || v > -382));
  assert.equal(rest.length, 2);
  assert.equal(west.length, 1);
  assert.equal(east.length, 1);
  assert.ok(Math.abs(footprintArea(west[0]) - 60) < 0.05, `west ${footprintArea(west[0])} m²`);
  assert.ok(Math.abs(footprintArea(east[0]) - 60) < 0.05, `east ${footprintArea(east[0])} m²`);
});

/** An axis-aligned rectangle footprint grown by d on every side. */
function grow(f: Footprint, d: number): Footprint {
  const xs = f.outer.filter((_, i) => i % 2 === 0),
    ys = f.outer.filter((_, i) => i % 2 === 1);
  return rect(Math.min(...xs) - d, Math.min(...ys) - d, Math.max(...xs) + d, Math.max(...ys) + d);
}

function inside(f: Footprint, x: number, y: number): boolean {
  return inRing(f.outer, x, y) && !f.holes.some((h) => inRing(h, x, y));
}

function inRing(r: number[], x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = r.length / 2 - 1; i < r.length / 2; j = i++) {
    if (r[2 * i + 1] > y !== r[2 * j + 1] > y && x < ((r[2 * j] - r[2 * i]) * (y - r[2 * i + 1])) / (r[2 * j + 1] - r[2 * i + 1]) + r[2 * i]) c = !c;
  }
  return c;
}

test('a part belongs to the smallest outline that contains it; a part outside every outline stands alone', () => {
  const campus = [rect(0, 0, 200, 200)];
  const hall = [rect(10, 10, 60, 60)];
  const parts = [[rect(20, 20, 30, 30)], [rect(100, 100, 120, 120)], [rect(300, 300, 310, 310)]];
  assert.deepEqual(assignPartsToOutlines([campus, hall], parts), [1, 0, -1]);
});
