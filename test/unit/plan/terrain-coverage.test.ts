import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import { elevationGridForTile, type ElevationGrid } from '../../../src/geometry/terrain/elevation-grid.ts';
import type { BBox } from '../../../src/geometry/types.ts';
import { cutField, filledField, latticeMosaic } from '../../../src/plan/elevation-field.ts';
import { mergeElevationGrids, missingSquareTiles } from '../../../src/plan/merge-elevation.ts';
import { extraTerrainTiles, squareGaps, tilesUnderExtents } from '../../../src/plan/terrain-tiles.ts';
import { elevationWarnings } from '../../../src/pipeline/warnings.ts';

const T = 500;
const frame = createLocalFrame(43.7335, 7.419);
const tileBox = (i: number, j: number): BBox => ({ minX: i * T, minY: j * T, maxX: (i + 1) * T, maxY: (j + 1) * T });
const smooth = (lon: number, lat: number) => 100 + 80 * Math.sin(lon * 300) * Math.cos(lat * 250);
/** Data only east of x = 0 in the local frame (a source whose edge runs through the request). */
const eastOnly = (lon: number, lat: number) => (frame.toLocal(lon, lat)[0] >= 0 ? smooth(lon, lat) : NaN);

describe('coverage of a tile grid', () => {
  test('counts the covered samples of the tile itself, and says whether the margin was covered too', () => {
    const full = elevationGridForTile(smooth, frame, tileBox(0, 0), 8, { marginCells: 2 });
    assert.deepEqual(full.coverage, { covered: 81, samples: 81, complete: true, any: true });
    // The tile starts at x = 0: its own samples are all covered, the western margin is not.
    const edge = elevationGridForTile(eastOnly, frame, tileBox(0, 0), 8, { marginCells: 2 });
    assert.deepEqual(edge.coverage, { covered: 81, samples: 81, complete: false, any: true });
    // Half a tile west of the edge: columns 0..3 uncovered, 4..8 (x >= 0) covered.
    const half = elevationGridForTile(eastOnly, frame, { minX: -250, minY: 0, maxX: 250, maxY: 500 }, 8, { fill: false });
    assert.equal(half.coverage.covered, 9 * 5);
    assert.ok(Number.isNaN(half.heights[0]) && Number.isFinite(half.heights[8]), 'without fill the uncovered samples stay NaN');
    const none = elevationGridForTile(() => NaN, frame, tileBox(0, 0), 4);
    assert.deepEqual(none.coverage, { covered: 0, samples: 25, complete: false, any: false });
    assert.ok(
      none.heights.every((h) => h === 0),
      'filled with the fallback height when asked to fill',
    );
  });
});

describe('the filled field of a request', () => {
  const raw = (i: number, j: number, m = 0) =>
    elevationGridForTile(eastOnly, frame, { minX: (i - 0.5) * T, minY: j * T, maxX: (i + 0.5) * T, maxY: (j + 1) * T }, 8, { fill: false, marginCells: m })
      .padded;

  test('lays grids on their lattice (shared edges agree), fills only the uncovered samples from covered ones', () => {
    const grids = [raw(0, 0, 2), raw(1, 0), raw(0, 1), raw(1, 1, 2)];
    const mosaic = latticeMosaic(grids);
    const spacing = T / 8;
    assert.deepEqual(mosaic.bbox, { minX: -0.5 * T - 2 * spacing, minY: -2 * spacing, maxX: 1.5 * T + 2 * spacing, maxY: 2 * T + 2 * spacing });
    const field = filledField(grids)!;
    assert.ok(field.heights.every(Number.isFinite), 'no hole');
    const lo = Math.min(...grids.flatMap((g) => [...g.heights].filter(Number.isFinite)));
    const hi = Math.max(...grids.flatMap((g) => [...g.heights].filter(Number.isFinite)));
    assert.ok(
      field.heights.every((h) => h >= lo - 1e-3 && h <= hi + 1e-3),
      'filled values stay within the covered range',
    );
    for (const g of grids) {
      const cut = cutField(field, g.bbox);
      assert.deepEqual(cut.bbox, g.bbox);
      g.heights.forEach((h, k) => {
        if (!Number.isNaN(h)) assert.equal(cut.heights[k], h, 'covered samples are kept as read');
      });
    }
  });

  test('is null when no grid holds a covered sample', () => {
    const empty = elevationGridForTile(() => NaN, frame, tileBox(0, 0), 4, { fill: false });
    assert.equal(filledField([empty]), null);
    assert.equal(filledField([]), null);
  });
});

describe('extra terrain tiles', () => {
  const grid = { origin: { x: 0, y: 0 }, size: T, columns: 2, rows: 1 };

  test('tiles under extents, with negative indices and boxes ending on a tile edge', () => {
    assert.deepEqual(tilesUnderExtents(grid, [{ minX: -10, minY: 20, maxX: 500, maxY: 480 }]), [
      { i: -1, j: 0 },
      { i: 0, j: 0 },
    ]);
    assert.deepEqual(
      tilesUnderExtents(grid, [{ minX: 990, minY: -5, maxX: 1010, maxY: 0 }]).sort((a, b) => a.j - b.j || a.i - b.i),
      [
        { i: 1, j: -1 },
        { i: 2, j: -1 },
      ],
    );
  });

  test('the square grows to hold the tiles under the geometry; its gaps are listed for the combined map only', () => {
    const done = [
      { i: 0, j: 0 },
      { i: 1, j: 0 },
    ];
    const extents = [{ minX: -30, minY: 100, maxX: 200, maxY: 300 }]; // a building crossing the west edge
    const combined = extraTerrainTiles(grid, done, extents, true);
    assert.deepEqual(combined.under, [{ i: -1, j: 0 }]);
    // 3 × 1 tiles → 3 × 3 square, grown equally south and north.
    assert.deepEqual(combined.gaps.length, 6);
    assert.ok(combined.gaps.every((t) => t.i >= -1 && t.i <= 1 && t.j >= -1 && t.j <= 1 && t.j !== 0));
    assert.deepEqual(extraTerrainTiles(grid, done, extents, false), { under: [{ i: -1, j: 0 }], gaps: [] });
  });

  test('square gaps agree with the merge: computing them gives a map without filled tiles', () => {
    const sampler = (lon: number, lat: number) => smooth(lon, lat);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ i: fc.integer({ min: -2, max: 2 }), j: fc.integer({ min: -2, max: 2 }) }), {
          minLength: 1,
          maxLength: 8,
          selector: (t) => `${t.i},${t.j}`,
        }),
        (tiles) => {
          const grids: ElevationGrid[] = tiles.map((t) => elevationGridForTile(sampler, frame, tileBox(t.i, t.j), 2));
          const gaps = squareGaps(tiles);
          assert.equal(gaps.length, missingSquareTiles(grids).length);
          const all = [...grids, ...gaps.map((t) => elevationGridForTile(sampler, frame, tileBox(t.i, t.j), 2))];
          assert.equal(missingSquareTiles(all).length, 0);
          assert.deepEqual(mergeElevationGrids(all).bbox, mergeElevationGrids(grids).bbox);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('elevation warnings', () => {
  test('unavailable without any data, partial with the covered share rounded down, none when all covered', () => {
    assert.deepEqual(
      elevationWarnings({ covered: 0, samples: 100, any: false }).map((w) => [w.code, w.details]),
      [['elevation_unavailable', { coveredShare: 0 }]],
    );
    const [partial] = elevationWarnings({ covered: 9999, samples: 10000, any: true });
    assert.equal(partial.code, 'elevation_partial');
    assert.equal(partial.details.coveredShare, 0.999);
    assert.deepEqual(elevationWarnings({ covered: 81, samples: 81, any: true }), []);
  });
});
