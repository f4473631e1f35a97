import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import type { ElevationGrid } from '../../../../src/geometry/terrain/elevation-grid.ts';
import { createGroundSampler, footprintGroundRange } from '../../../../src/geometry/terrain/ground-sampler.ts';
import type { Ring } from '../../../../src/geometry/types.ts';
import { createElevationSourceFromConfig } from '../../../../src/sources/dem/config.ts';
import { readTileElevation } from '../../../../src/sources/dem/read-tile-elevation.ts';

/** A 10 m grid over [0, 10·n]² with the given heights (row 0 north). */
function gridOf(n: number, heights: number[]): ElevationGrid {
  return { bbox: { minX: 0, minY: 0, maxX: 10 * n, maxY: 10 * n }, columns: n + 1, rows: n + 1, heights: Float32Array.from(heights) };
}

function pointInRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length / 2 - 1; i < ring.length / 2; j = i++) {
    const xi = ring[2 * i],
      yi = ring[2 * i + 1],
      xj = ring[2 * j],
      yj = ring[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describe('ground sampler', () => {
  test('equals the grid at its nodes, interpolates on the two triangles of a cell, extends the edges', () => {
    const ground = createGroundSampler(gridOf(1, [10, 20, 30, 40])); // NW 10, NE 20, SW 30, SE 40
    assert.equal(ground(0, 10), 10);
    assert.equal(ground(10, 10), 20);
    assert.equal(ground(0, 0), 30);
    assert.equal(ground(10, 0), 40);
    assert.equal(ground(5, 5), 25);
    assert.equal(ground(2.5, 10), 12.5);
    assert.equal(ground(-50, 100), 10, 'clamped to the north-west corner');
    assert.equal(ground.spacing, 10);
    // a twisted cell (only SE raised): flat on the NW triangle, a plane on the SE one — as the
    // terrain mesh and three.js PlaneGeometry draw it (the SW–NE diagonal), not a bilinear patch
    const twisted = createGroundSampler(gridOf(1, [0, 0, 0, 10]));
    assert.equal(twisted(2.5, 7.5), 0);
    assert.equal(twisted(7.5, 2.5), 5);
    assert.equal(twisted(5, 5), 0, 'on the diagonal');
  });

  test('without terrain the ground is flat at z = 0', () => {
    const flat = createGroundSampler(null);
    assert.equal(flat(123, -456), 0);
    assert.deepEqual(footprintGroundRange(flat, [0, 0, 10, 0, 10, 10]), { min: 0, max: 0 });
  });

  test('footprint range: exact extremes of the ground under random polygons', () => {
    const n = 6;
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: (n + 1) ** 2, maxLength: (n + 1) ** 2 }),
        fc.double({ min: 12, max: 48, noNaN: true }),
        fc.double({ min: 12, max: 48, noNaN: true }),
        fc.array(fc.double({ min: 2, max: 11, noNaN: true }), { minLength: 3, maxLength: 9 }),
        (heights, cx, cy, radii) => {
          const ground = createGroundSampler(gridOf(n, heights));
          // A star-shaped (so simple) polygon around (cx, cy).
          const ring: Ring = radii.flatMap((r, k) => {
            const a = (2 * Math.PI * k) / radii.length;
            return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
          });
          const range = footprintGroundRange(ground, ring);
          let denseMin = Infinity,
            denseMax = -Infinity;
          const visit = (x: number, y: number) => {
            const z = ground(x, y);
            denseMin = Math.min(denseMin, z);
            denseMax = Math.max(denseMax, z);
          };
          for (let x = cx - 12; x <= cx + 12; x += 0.2) for (let y = cy - 12; y <= cy + 12; y += 0.2) if (pointInRing(x, y, ring)) visit(x, y);
          for (let k = 0; k < ring.length / 2; k++) {
            const l = (k + 1) % (ring.length / 2);
            for (let s = 0; s <= 50; s++)
              visit(ring[2 * k] + ((ring[2 * l] - ring[2 * k]) * s) / 50, ring[2 * k + 1] + ((ring[2 * l + 1] - ring[2 * k + 1]) * s) / 50);
          }
          assert.ok(range.min <= denseMin + 1e-9 && range.max >= denseMax - 1e-9, 'no point of the footprint lies outside the range');
          assert.ok(denseMin - range.min < 0.3 && range.max - denseMax < 0.3, `the range is attained: ${range.min}..${range.max} vs ${denseMin}..${denseMax}`);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('ground on the Monaco sample', () => {
  test("a tile's ground reaches past its edge and agrees with the neighbouring tile's", async () => {
    const frame = createLocalFrame(43.7335, 7.419);
    const dem = await createElevationSourceFromConfig();
    const west = await readTileElevation(dem, frame, { minX: 0, minY: 0, maxX: 500, maxY: 500 }, { segments: 8 });
    const east = await readTileElevation(dem, frame, { minX: 500, minY: 0, maxX: 1000, maxY: 500 }, { segments: 8 });
    for (let x = 300; x <= 700; x += 12.5) {
      for (let y = 0; y <= 500; y += 62.5) {
        assert.ok(Math.abs(west.ground(x, y) - east.ground(x, y)) < 1e-4, `(${x}, ${y})`);
      }
    }
    // A building footprint across the tile edge near the port: base and top of the ground under it.
    const footprint: Ring = [480, 200, 530, 200, 530, 240, 480, 240];
    const range = footprintGroundRange(west.ground, footprint);
    assert.ok(range.min <= west.ground(505, 220) && west.ground(505, 220) <= range.max);
    assert.ok(range.max - range.min < 40 && range.min > -5, `${range.min}..${range.max}`);
    await dem.close();
  });
});
