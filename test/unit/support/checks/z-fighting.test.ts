/**
 * The z-fighting detector of the export e2e test (test/support/checks/z-fighting.ts) on synthetic
 * soups: it finds two overlapping coplanar squares, on the flat and on any slope it treats as
 * upward, and finds nothing once they are 3 m apart in height, side by side, or one faces down.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findZFighting, trianglesOf } from '../../../support/checks/z-fighting.ts';

type Plane = (x: number, y: number) => number;

/** A square of side `s` at (x0, y0), two counter-clockwise triangles on `plane` (clockwise when `down`). */
function square(x0: number, y0: number, s: number, plane: Plane, down = false): number[] {
  const p = (x: number, y: number) => [x, y, plane(x, y)];
  const [a, b, c, d] = [p(x0, y0), p(x0 + s, y0), p(x0 + s, y0 + s), p(x0, y0 + s)];
  return down ? [...a, ...c, ...b, ...a, ...d, ...c] : [...a, ...b, ...c, ...a, ...c, ...d];
}

const flat: Plane = () => 12;

test('two coplanar overlapping squares z-fight; 3 m apart in height they do not', () => {
  const fighting = findZFighting([...square(0, 0, 10, flat), ...square(3, 2, 10, flat)]);
  assert.equal(fighting.upward, 4);
  assert.ok(fighting.spots.length > 0, 'coplanar overlap found');
  for (const s of fighting.spots) assert.ok(Math.abs(s.dz) < 1e-9);
  const apart = findZFighting([...square(0, 0, 10, flat), ...square(3, 2, 10, (x, y) => flat(x, y) + 3)]);
  assert.equal(apart.upward, 4);
  assert.deepEqual(apart.spots, []);
});

test('neighbours sharing an edge, a square with its own triangles, and a downward face never count', () => {
  assert.deepEqual(findZFighting([...square(0, 0, 10, flat), ...square(10, 0, 10, flat)]).spots, []);
  assert.deepEqual(findZFighting(square(0, 0, 10, flat)).spots, []);
  const down = findZFighting([...square(0, 0, 10, flat), ...square(3, 2, 10, flat, true)]);
  assert.equal(down.upward, 2);
  assert.deepEqual(down.spots, []);
});

test('on any slope up to 55°, overlapping coplanar squares z-fight and 3 m above they do not', () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: Math.tan((55 * Math.PI) / 180), noNaN: true }),
      fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
      fc.double({ min: -500, max: 500, noNaN: true }),
      fc.double({ min: -4, max: 4, noNaN: true }),
      fc.double({ min: -4, max: 4, noNaN: true }),
      (slope, aspect, x0, dx, dy) => {
        const plane: Plane = (x, y) => 40 + slope * (Math.cos(aspect) * x + Math.sin(aspect) * y);
        const lifted: Plane = (x, y) => plane(x, y) + 3;
        assert.ok(findZFighting([...square(x0, 7, 10, plane), ...square(x0 + dx, 7 + dy, 10, plane)]).spots.length > 0);
        assert.deepEqual(findZFighting([...square(x0, 7, 10, plane), ...square(x0 + dx, 7 + dy, 10, lifted)]).spots, []);
      },
    ),
  );
});

test('trianglesOf finds the reference triangles in a soup whatever their corner order, to the tolerance', () => {
  const a = square(0, 0, 10, flat),
    b = square(20, 0, 10, flat);
  const rotated = [...a.slice(3, 9), ...a.slice(0, 3), ...a.slice(9)]; // first triangle's corners in another order
  const nudged = b.map((c, i) => (i % 3 === 2 ? c + 4e-4 : c));
  assert.deepEqual([...trianglesOf([...rotated, ...nudged], a)], [0, 1]);
  assert.deepEqual([...trianglesOf([...rotated, ...nudged], b)], [2, 3]);
  assert.deepEqual(
    [
      ...trianglesOf(
        b.map((c, i) => (i % 3 === 2 ? c + 5e-3 : c)),
        b,
      ),
    ],
    [],
  );
});
