import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { createLocalFrame } from '../../../../src/frame/local-frame.ts';
import { elevationGridForTile, lonLatBBoxOfLocal, type ElevationGrid } from '../../../../src/geometry/terrain/elevation-grid.ts';
import { elevationMapEntry } from '../../../../src/geometry/terrain/elevation-map-entry.ts';
import { chooseGridSpacing } from '../../../../src/geometry/terrain/grid-spacing.ts';
import type { BBox } from '../../../../src/geometry/types.ts';
import { elevationMapEntries, mergeElevationGrids, missingSquareTiles } from '../../../../src/plan/merge-elevation.ts';
import { DEFAULT_DEM_PATH } from '../../../../src/sources/dem/config.ts';
import { openHgt } from '../../../../src/sources/dem/hgt.ts';
import { readTileElevation, type TileElevation } from '../../../../src/sources/dem/read-tile-elevation.ts';
import type { RasterElevationSource } from '../../../../src/sources/dem/raster-source.ts';

const T = 500;
const frame = createLocalFrame(43.7335, 7.419);
const tileBox = (i: number, j: number, originX = 0, originY = 0): BBox => {
  const minX = originX + i * T,
    minY = originY + j * T;
  return { minX, minY, maxX: minX + T, maxY: minY + T };
};
const column = (g: ElevationGrid, c: number) => Array.from({ length: g.rows }, (_, r) => g.heights[r * g.columns + c]);
const row = (g: ElevationGrid, r: number) => Array.from(g.heights.subarray(r * g.columns, (r + 1) * g.columns));

describe('grid spacing rule', () => {
  test('follows the source resolution with a power of two per tile', () => {
    assert.deepEqual(chooseGridSpacing({ tileSize: 500, tilesPerSide: 2, resolutionMetres: 66.9 }), { segments: 8, spacing: 62.5 });
    assert.deepEqual(chooseGridSpacing({ tileSize: 500, tilesPerSide: 2, resolutionMetres: 30 }), { segments: 32, spacing: 15.625 });
    assert.equal(chooseGridSpacing({ tileSize: 500, tilesPerSide: 1, resolutionMetres: 1000 }).segments, 1);
  });

  test('is bounded: 10 km² (7 tiles per side) at 1 m lidar gets 64 segments per tile', () => {
    assert.equal(chooseGridSpacing({ tileSize: 500, tilesPerSide: 7, resolutionMetres: 1 }).segments, 64);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0.1, max: 5000, noNaN: true }), fc.integer({ min: 50, max: 2000 }), (tiles, res, size) => {
        const { segments, spacing } = chooseGridSpacing({ tileSize: size, tilesPerSide: tiles, resolutionMetres: res });
        assert.equal(segments & (segments - 1), 0, 'power of two');
        assert.ok(segments === 1 || tiles * segments <= 512);
        assert.ok(segments === 1 || spacing >= 1);
        assert.equal(spacing * segments, size);
      }),
    );
  });
});

describe('tile grids on the Monaco sample (800 m square at 43.7335 N 7.4190 E, 2×2 tiles of 500 m)', () => {
  let source: RasterElevationSource;
  let segments = 0;
  const tiles: { i: number; j: number; elevation: TileElevation }[] = [];

  before(async () => {
    source = await openHgt(DEFAULT_DEM_PATH);
    segments = chooseGridSpacing({ tileSize: T, tilesPerSide: 2, resolutionMetres: source.resolutionMetresAt(43.7335) }).segments;
    for (const [i, j] of [
      [0, 0],
      [1, 0],
      [0, 1],
      [1, 1],
    ]) {
      tiles.push({ i, j, elevation: await readTileElevation(source, frame, tileBox(i, j), { segments }) });
    }
  });
  after(() => source.close());
  const at = (i: number, j: number) => tiles.find((t) => t.i === i && t.j === j)!.elevation.grid;

  test('each tile grid is (segments+1)² over exactly its tile', () => {
    assert.equal(segments, 8);
    for (const t of tiles) {
      assert.deepEqual(t.elevation.grid.bbox, tileBox(t.i, t.j));
      assert.equal(t.elevation.grid.heights.length, 81);
      assert.deepEqual(
        t.elevation.attributions.map((a) => a.id),
        ['srtm'],
      );
    }
  });

  test('neighbouring tiles share their edge samples bit for bit', () => {
    assert.deepEqual(column(at(0, 0), segments), column(at(1, 0), 0));
    assert.deepEqual(column(at(0, 1), segments), column(at(1, 1), 0));
    assert.deepEqual(row(at(0, 0), 0), row(at(0, 1), segments)); // north row of the south tile = south row of the north tile
    assert.deepEqual(row(at(1, 0), 0), row(at(1, 1), segments));
  });

  test('the elevation map reproduces the DEM at its grid points (as a client places them)', async () => {
    const window = await source.readWindow(lonLatBBoxOfLocal(frame, { minX: 0, minY: 0, maxX: 1000, maxY: 1000 }, 100));
    for (const entry of [
      ...elevationMapEntries(
        tiles.map((t) => t.elevation.grid),
        true,
      ),
      ...elevationMapEntries(
        tiles.map((t) => t.elevation.grid),
        false,
      ),
    ]) {
      const { terrainSize: size, segmentsCount: n, moveVector } = entry.info;
      assert.equal(entry.elevationMap.length, (n + 1) ** 2);
      for (let r = 0; r <= n; r++) {
        for (let c = 0; c <= n; c++) {
          const x = moveVector.x - size / 2 + (c * size) / n,
            y = moveVector.y + size / 2 - (r * size) / n;
          const dem = window.sample(...frame.toLonLat(x, y));
          assert.ok(Math.abs(entry.elevationMap[r * (n + 1) + c] - dem) < 0.002, `(${x}, ${y}): map ${entry.elevationMap[r * (n + 1) + c]} DEM ${dem}`);
        }
      }
    }
  });

  test('the combined grid equals every tile grid where they overlap', () => {
    const merged = mergeElevationGrids(tiles.map((t) => t.elevation.grid));
    assert.deepEqual(merged.bbox, { minX: 0, minY: 0, maxX: 1000, maxY: 1000 });
    assert.equal(merged.columns, 2 * segments + 1);
    for (const t of tiles) {
      const g = t.elevation.grid;
      for (let r = 0; r <= segments; r++) {
        for (let c = 0; c <= segments; c++) {
          const mr = (1 - t.j) * segments + r,
            mc = t.i * segments + c;
          assert.equal(merged.heights[mr * merged.columns + mc], g.heights[r * g.columns + c]);
        }
      }
    }
  });

  test('entries follow DESIGN.md: one combined map, or one per tile', () => {
    const grids = tiles.map((t) => t.elevation.grid);
    const [combined] = elevationMapEntries(grids, true);
    assert.deepEqual(combined.info, {
      terrainSize: 1000,
      segmentsCount: 16,
      moveVector: { x: 500, y: 500 },
      width: 1000,
      height: 1000,
      segmentsWidth: 16,
      segmentsHeight: 16,
    });
    const perTile = elevationMapEntries(grids, false);
    assert.equal(perTile.length, 4);
    assert.deepEqual(
      perTile.map((e) => [e.info.terrainSize, e.info.segmentsCount, e.info.moveVector]),
      [
        [500, 8, { x: 250, y: 250 }],
        [500, 8, { x: 750, y: 250 }],
        [500, 8, { x: 250, y: 750 }],
        [500, 8, { x: 750, y: 750 }],
      ],
    );
    // First row northernmost: the combined map's first row is the north tiles' first rows.
    assert.deepEqual(combined.elevationMap.slice(0, 9), elevationMapEntry(at(0, 1)).elevationMap.slice(0, 9));
  });
});

describe('merging per-tile grids', () => {
  // A smooth synthetic ground, a function of position only, so every tile samples the same surface.
  const sampler = (lon: number, lat: number) => 100 + 80 * Math.sin(lon * 300) * Math.cos(lat * 250);
  const grid = (i: number, j: number, n: number) => elevationGridForTile(sampler, frame, tileBox(i, j, -730, 210), n);

  test('any layout of tiles merges into a square without holes, equal to each tile', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom(1, 2, 4),
        fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
        (cols, rows, n, keep) => {
          const present: [number, number][] = [];
          for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) if (keep[j * 4 + i]) present.push([i, j]);
          // The planner always has a tile in the first column and the first row (they touch the polygon's bbox).
          if (!present.some(([i]) => i === 0) || !present.some(([, j]) => j === 0)) present.push([0, 0]);
          const grids = present.map(([i, j]) => grid(i, j, n));
          const merged = mergeElevationGrids(grids);
          assert.equal(merged.columns, merged.rows);
          assert.ok(merged.heights.every(Number.isFinite), 'no hole');
          const lo = Math.min(...grids.map((g) => Math.min(...g.heights))),
            hi = Math.max(...grids.map((g) => Math.max(...g.heights)));
          assert.ok(
            merged.heights.every((h) => h >= lo - 1e-3 && h <= hi + 1e-3),
            'no spike',
          );
          const spacing = T / n;
          for (const g of grids) {
            for (let r = 0; r < g.rows; r++) {
              for (let c = 0; c < g.columns; c++) {
                const mc = Math.round((g.bbox.minX - merged.bbox.minX) / spacing) + c;
                const mr = Math.round((merged.bbox.maxY - g.bbox.maxY) / spacing) + r;
                assert.equal(merged.heights[mr * merged.columns + mc], g.heights[r * g.columns + c]);
              }
            }
          }
          const side = (merged.columns - 1) / n;
          const unique = new Set(present.map(([i, j]) => `${i},${j}`)).size;
          assert.equal(missingSquareTiles(grids).length, side * side - unique);
        },
      ),
      { numRuns: 40 },
    );
  });

  test('a 3×1 strip becomes a 3×3 square grown equally north and south', () => {
    const grids = [0, 1, 2].map((i) => grid(i, 0, 2));
    const merged = mergeElevationGrids(grids);
    assert.deepEqual(merged.bbox, { minX: -730, minY: 210 - T, maxX: -730 + 3 * T, maxY: 210 + 2 * T });
    assert.deepEqual(missingSquareTiles(grids), [
      { i: 0, j: -1 },
      { i: 1, j: -1 },
      { i: 2, j: -1 },
      { i: 0, j: 1 },
      { i: 1, j: 1 },
      { i: 2, j: 1 },
    ]);
    // Computing the missing tiles too gives real data everywhere, equal to sampling the full square.
    const full = mergeElevationGrids([...grids, ...missingSquareTiles(grids).map(({ i, j }) => grid(i, j, 2))]);
    const direct = elevationGridForTile(sampler, frame, merged.bbox, 6);
    for (let k = 0; k < full.heights.length; k++) assert.ok(Math.abs(full.heights[k] - direct.heights[k]) < 1e-3);
  });

  test('tiles of different sizes or segment counts are refused', () => {
    assert.throws(() => mergeElevationGrids([grid(0, 0, 2), grid(1, 0, 4)]), /same number of segments/);
    assert.throws(() => mergeElevationGrids([]), /no elevation tiles/);
  });
});
