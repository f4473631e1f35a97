import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { clipPolylineToBox } from '../../../src/geometry/clip-polyline.ts';

const length = (p: number[], closed = false) => {
  let s = 0;
  const n = p.length / 2;
  for (let k = 0; k < (closed ? n : n - 1); k++) {
    const l = (k + 1) % n;
    s += Math.hypot(p[2 * l] - p[2 * k], p[2 * l + 1] - p[2 * k + 1]);
  }
  return s;
};

const coord = fc.integer({ min: -100, max: 100 });
const polyline = fc.array(fc.tuple(coord, coord), { minLength: 2, maxLength: 12 }).map((ps) => ps.flat());

test('clipping a polyline to two neighbouring boxes splits it without loss or overlap', () => {
  fc.assert(
    fc.property(polyline, fc.boolean(), fc.integer({ min: -50, max: 50 }), (points, closed, cut) => {
      const left = { minX: -60, minY: -60, maxX: cut, maxY: 60 },
        right = { minX: cut, minY: -60, maxX: 60, maxY: 60 };
      const whole = { minX: -60, minY: -60, maxX: 60, maxY: 60 };
      const total = (box: typeof whole) => clipPolylineToBox(points, closed, box).reduce((s, part) => s + length(part.points, part.closed), 0);
      for (const part of clipPolylineToBox(points, closed, left)) {
        for (let k = 0; k < part.points.length; k += 2) assert.ok(part.points[k] <= cut + 1e-9 && part.points[k] >= -60 - 1e-9);
      }
      // Segments lying exactly on the shared edge count in both boxes; measure without them.
      const onEdge = (() => {
        let s = 0;
        const n = points.length / 2;
        for (let k = 0; k < (closed ? n : n - 1); k++) {
          const l = (k + 1) % n;
          const [ax, ay, bx, by] = [points[2 * k], points[2 * k + 1], points[2 * l], points[2 * l + 1]];
          if (ax === cut && bx === cut) s += Math.abs(Math.max(-60, Math.min(60, by)) - Math.max(-60, Math.min(60, ay)));
        }
        return s;
      })();
      assert.ok(Math.abs(total(left) + total(right) - onEdge - total(whole)) < 1e-6, `${total(left)} + ${total(right)} vs ${total(whole)}`);
    }),
    { numRuns: 500 },
  );
});

test('a polyline inside the box comes back whole, closed when it was', () => {
  const square = [0, 0, 10, 0, 10, 10, 0, 10];
  assert.deepEqual(clipPolylineToBox(square, true, { minX: -1, minY: -1, maxX: 11, maxY: 11 }), [{ points: square, closed: true }]);
  const parts = clipPolylineToBox(square, true, { minX: -1, minY: -1, maxX: 5, maxY: 11 });
  assert.deepEqual(parts, [{ points: [5, 10, 0, 10, 0, 0, 5, 0], closed: false }]);
});
