import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import * as turf from '@turf/turf';
import { ownerTileKey, tileGridFor, tileKey, tilesTouchingPolygon, tileIndexOf, rectTouchesPolygon } from '../../../src/plan/tiling.ts';
import { featureAnchor } from '../../../src/geometry/anchor.ts';
import type { Ring } from '../../../src/geometry/types.ts';

/** A star-shaped (simple, possibly concave) polygon around (cx, cy). */
const starPolygon = fc
  .record({
    cx: fc.double({ min: -2000, max: 2000, noNaN: true }),
    cy: fc.double({ min: -2000, max: 2000, noNaN: true }),
    radii: fc.array(fc.double({ min: 50, max: 1500, noNaN: true }), { minLength: 3, maxLength: 14 }),
  })
  .map(({ cx, cy, radii }) => {
    const ring: Ring = [];
    radii.forEach((r, k) => {
      const a = (2 * Math.PI * k) / radii.length;
      ring.push(cx + r * Math.cos(a), cy + r * Math.sin(a));
    });
    return ring;
  });

/** Random features: small rotated rectangles (areas) anywhere around the polygon. */
const features = fc.array(
  fc
    .record({
      x: fc.double({ min: -4000, max: 4000, noNaN: true }),
      y: fc.double({ min: -4000, max: 4000, noNaN: true }),
      w: fc.double({ min: 1, max: 400, noNaN: true }),
      h: fc.double({ min: 1, max: 400, noNaN: true }),
      a: fc.double({ min: 0, max: Math.PI, noNaN: true }),
    })
    .map(({ x, y, w, h, a }) => {
      const c = Math.cos(a),
        s = Math.sin(a);
      const corners = [
        [-w / 2, -h / 2],
        [w / 2, -h / 2],
        [w / 2, h / 2],
        [-w / 2, h / 2],
      ];
      return corners.flatMap(([u, v]) => [x + u * c - v * s, y + u * s + v * c]);
    }),
  { maxLength: 40 },
);

function toGeoJsonPolygon(ring: Ring) {
  const coords: [number, number][] = [];
  for (let k = 0; k < ring.length; k += 2) coords.push([ring[k], ring[k + 1]]);
  coords.push(coords[0]);
  return turf.polygon([coords]);
}

test('every feature that meets the polygon is built by exactly one task tile, and no other feature is', () => {
  let met = 0,
    missed = 0;
  fc.assert(
    fc.property(starPolygon, features, fc.constantFrom(100, 250, 500), (polygon, feats, size) => {
      const grid = tileGridFor(polygon, size);
      const tasks = tilesTouchingPolygon(grid, polygon);
      const taskKeys = new Set(tasks.map((t) => tileKey(grid, t.i, t.j)));
      assert.ok(tasks.length > 0);
      const poly = toGeoJsonPolygon(polygon);
      for (const f of feats) {
        const meets = turf.booleanIntersects(poly, toGeoJsonPolygon(f));
        const anchor = featureAnchor([f], polygon);
        assert.equal(anchor !== null, meets, 'anchor exists exactly when the feature meets the polygon');
        if (!anchor) {
          missed++;
          continue;
        }
        met++;
        // Each task decides independently whether it owns the feature, as workers do.
        const owners = tasks.filter((t) => ownerTileKey(grid, taskKeys, anchor[0], anchor[1]) === tileKey(grid, t.i, t.j));
        assert.equal(owners.length, 1);
        const { i, j } = tileIndexOf(grid, anchor[0], anchor[1]);
        assert.ok(taskKeys.has(tileKey(grid, i, j)), 'the anchor lies in a task tile');
      }
    }),
    { numRuns: 300 },
  );
  assert.ok(met > 300 && missed > 100, `generated both kinds of feature (met ${met}, missed ${missed})`);
});

test('tiles that touch the polygon are exactly the tasks (checked against turf)', () => {
  fc.assert(
    fc.property(starPolygon, fc.constantFrom(100, 300, 500), (polygon, size) => {
      const grid = tileGridFor(polygon, size);
      const poly = toGeoJsonPolygon(polygon);
      for (let j = 0; j < grid.rows; j++)
        for (let i = 0; i < grid.columns; i++) {
          const minX = grid.origin.x + i * size,
            minY = grid.origin.y + j * size;
          const rect = { minX, minY, maxX: minX + size, maxY: minY + size };
          const box = turf.bboxPolygon([rect.minX, rect.minY, rect.maxX, rect.maxY]);
          assert.equal(rectTouchesPolygon(rect, polygon), turf.booleanIntersects(poly, box));
        }
    }),
    { numRuns: 150 },
  );
});

test('the grid covers the polygon bounding box with whole tiles', () => {
  const polygon = [0, 0, 1200, 0, 1200, 499, 0, 499];
  const grid = tileGridFor(polygon, 500);
  assert.deepEqual([grid.columns, grid.rows], [3, 1]);
  assert.equal(tilesTouchingPolygon(grid, polygon).length, 3);
  // an L-shaped polygon leaves its empty corner tile out
  const l = [0, 0, 1000, 0, 1000, 400, 400, 400, 400, 1000, 0, 1000];
  const tiles = tilesTouchingPolygon(tileGridFor(l, 500), l);
  assert.deepEqual(tiles.map((t) => `${t.i},${t.j}`).sort(), ['0,0', '0,1', '1,0']);
});
