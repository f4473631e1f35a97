import type { ElevationGrid } from '../geometry/terrain/elevation-grid.ts';
import { elevationMapEntry, type ElevationMapEntry } from '../geometry/terrain/elevation-map-entry.ts';
import { fillVoids } from '../geometry/terrain/fill-voids.ts';

/**
 * Merging per-tile elevation grids (main thread) into the one square grid docs/design.md asks for
 * when `combineElevationMaps` is on. Pure.
 *
 * The tiles are squares of side T on a common lattice (tile (i, j) = origin + (i, j)·T), each with
 * the same n segments per side. The merged grid is the smallest square of whole tiles holding all
 * of them — the tile rectangle grown on its shorter side, half on each side (the extra tile, when
 * the difference is odd, goes east/north) — with side·n segments. Tiles share their edge samples
 * bit for bit, so copying them in gives a seamless grid equal to every tile where they overlap.
 *
 * Tiles of the square that nobody computed are filled from their neighbours (`fillVoids`: onion
 * peeling plus relaxation, so no hole and no spike). The pipeline computes the square's other
 * tiles too (cheap elevation-only tasks, see src/plan/terrain-tiles.ts), so the fill only acts
 * where no elevation source has data.
 */

interface TilePlacement {
  grid: ElevationGrid;
  i: number;
  j: number;
}

/** Where the tiles sit on their lattice, and the square around them. */
function placeTiles(tiles: readonly ElevationGrid[]) {
  if (tiles.length === 0) throw new Error('no elevation tiles to merge');
  const first = tiles[0];
  const size = first.bbox.maxX - first.bbox.minX;
  const n = first.columns - 1;
  let originX = Infinity,
    originY = Infinity;
  for (const t of tiles) {
    if (t.columns !== n + 1 || t.rows !== n + 1) throw new Error('tiles of one request must have the same number of segments');
    if (Math.abs(t.bbox.maxX - t.bbox.minX - size) > 1e-6 * size || Math.abs(t.bbox.maxY - t.bbox.minY - size) > 1e-6 * size)
      throw new Error('tiles must be squares of one size');
    originX = Math.min(originX, t.bbox.minX);
    originY = Math.min(originY, t.bbox.minY);
  }
  const placed: TilePlacement[] = tiles.map((grid) => ({
    grid,
    i: Math.round((grid.bbox.minX - originX) / size),
    j: Math.round((grid.bbox.minY - originY) / size),
  }));
  const square = squareOfTiles(placed);
  return { placed, size, n, originX, originY, side: square.side, shiftI: -square.i0, shiftJ: -square.j0 };
}

/**
 * The square of whole tiles the merged grid covers, for tiles given by lattice index: the tiles'
 * bounding rectangle grown on its shorter side, half on each side (the extra tile, when the
 * difference is odd, east/north). `i0`, `j0` = its south-west tile; `side` in tiles.
 */
export function squareOfTiles(tiles: readonly { i: number; j: number }[]): { i0: number; j0: number; side: number } {
  if (tiles.length === 0) throw new Error('no tiles');
  let minI = Infinity,
    minJ = Infinity,
    maxI = -Infinity,
    maxJ = -Infinity;
  for (const t of tiles) {
    minI = Math.min(minI, t.i);
    maxI = Math.max(maxI, t.i);
    minJ = Math.min(minJ, t.j);
    maxJ = Math.max(maxJ, t.j);
  }
  const columns = maxI - minI + 1,
    rows = maxJ - minJ + 1;
  const side = Math.max(columns, rows);
  return { i0: minI - Math.floor((side - columns) / 2), j0: minJ - Math.floor((side - rows) / 2), side };
}

/**
 * One square grid covering all tiles (see the module comment). Row 0 is the northern edge.
 *
 * @example
 * const merged = mergeElevationGrids(results.map((r) => r.elevationGrid));
 * const entry = elevationMapEntry(merged);
 */
export function mergeElevationGrids(tiles: readonly ElevationGrid[]): ElevationGrid {
  const { placed, size, n, originX, originY, side, shiftI, shiftJ } = placeTiles(tiles);
  const count = side * n + 1;
  const heights = new Float32Array(count * count).fill(NaN);
  for (const { grid, i, j } of placed) {
    const col0 = (i + shiftI) * n;
    const row0 = (side - 1 - (j + shiftJ)) * n; // tile rows count from the south, grid rows from the north
    for (let r = 0; r <= n; r++) {
      heights.set(grid.heights.subarray(r * (n + 1), (r + 1) * (n + 1)), (row0 + r) * count + col0);
    }
  }
  fillVoids(heights, count, count);
  const minX = originX - shiftI * size,
    minY = originY - shiftJ * size;
  return { bbox: { minX, minY, maxX: minX + side * size, maxY: minY + side * size }, columns: count, rows: count, heights };
}

/**
 * Tile indices, relative to the lattice of the given tiles (0, 0 = the south-west-most tile's
 * column and row), of the square's tiles that are not among them. Offsets can be negative.
 */
export function missingSquareTiles(tiles: readonly ElevationGrid[]): { i: number; j: number }[] {
  const { placed, side, shiftI, shiftJ } = placeTiles(tiles);
  const have = new Set(placed.map((p) => `${p.i},${p.j}`));
  const out: { i: number; j: number }[] = [];
  for (let j = 0 - shiftJ; j < side - shiftJ; j++) {
    // 0 - s, not -s: no negative zero in the output
    for (let i = 0 - shiftI; i < side - shiftI; i++) if (!have.has(`${i},${j}`)) out.push({ i, j });
  }
  return out;
}

/**
 * The `elevationMaps` array of the topography group: one merged entry when combining (the
 * default), else one entry per tile (tiles meet without gaps: they share their edge samples).
 */
export function elevationMapEntries(tiles: readonly ElevationGrid[], combine: boolean): ElevationMapEntry[] {
  if (tiles.length === 0) return [];
  return combine ? [elevationMapEntry(mergeElevationGrids(tiles))] : tiles.map(elevationMapEntry);
}
