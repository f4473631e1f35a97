/** polygonsMeet against a rasterised answer over generated rectangles, and the hole cases by hand. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { polygonsMeet } from '../../../../src/geometry/planar/polygons-meet.ts';

const rect = (x0: number, y0: number, x1: number, y1: number) => [x0, y0, x1, y0, x1, y1, x0, y1];
const reversed = (r: number[]) => {
  const out: number[] = [];
  for (let i = r.length - 2; i >= 0; i -= 2) out.push(r[i], r[i + 1]);
  return out;
};

it('a square inside a hole is apart; across the hole edge, inside the ring or around the whole they meet', () => {
  const frame = [rect(0, 0, 10, 10), rect(3, 3, 7, 7)];
  assert.equal(polygonsMeet([rect(4, 4, 6, 6)], frame), false, 'inside the hole');
  assert.equal(polygonsMeet(frame, [rect(4, 4, 6, 6)]), false, 'either way round');
  assert.equal(polygonsMeet([rect(1, 1, 2, 2)], frame), true, 'inside the ring');
  assert.equal(polygonsMeet([rect(6, 6, 8, 8)], frame), true, 'across the hole side');
  assert.equal(polygonsMeet([rect(-1, -1, 11, 11)], frame), true, 'around it all');
  assert.equal(polygonsMeet([rect(11, 0, 12, 1)], frame), false, 'beside it');
  assert.equal(polygonsMeet([rect(10, 0, 12, 1)], frame), true, 'sharing a side');
  assert.equal(polygonsMeet([reversed(rect(1, 1, 2, 2))], frame), true, 'winding does not matter');
  assert.equal(polygonsMeet([], frame), false);
});

it('axis-aligned rectangles meet exactly when their closed boxes overlap', () => {
  const box = fc
    .tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 }))
    .map(([x, y, w, h]) => [x, y, x + w, y + h] as const);
  fc.assert(
    fc.property(box, box, (p, q) => {
      const expected = p[0] <= q[2] && q[0] <= p[2] && p[1] <= q[3] && q[1] <= p[3];
      assert.equal(polygonsMeet([rect(...p)], [rect(...q)]), expected);
    }),
  );
});
