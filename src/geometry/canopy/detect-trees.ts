import { growCrowns } from './crowns.ts';
import { localMaxima } from './local-maxima.ts';
import { enforceMinSpacing } from './min-spacing.ts';
import { CANOPY_DETECT_DEFAULTS, type CanopyDetectOptions, type CanopyGrid, type DetectedTree } from './types.ts';

/**
 * Individual trees from a canopy height model: treetops by the variable window filter (one per
 * plateau), thinned to `minSpacing`, and a crown per top by seeded region growing; the crown
 * diameter is that of the circle with the crown's area. Pure: a grid in, trees out.
 *
 * Trees near the grid's edge are decided without the cells beyond it; a caller that cuts a raster
 * into tiles reads `detectionMargin` around each and keeps the trees whose top it owns.
 *
 * @example
 * const trees = detectTrees({ data, width: 1000, height: 1000, cellSize: 1 }, { minHeight: 3 });
 */
export function detectTrees(grid: CanopyGrid, options: Partial<CanopyDetectOptions> = {}): DetectedTree[] {
  const o = { ...CANOPY_DETECT_DEFAULTS, ...options };
  const candidates = localMaxima(grid, o);
  const tops = enforceMinSpacing(candidates, o.minSpacing / grid.cellSize);
  const { cells } = growCrowns(grid, tops, o);
  const area = grid.cellSize * grid.cellSize;
  return tops.map((t, n) => ({
    col: t.col,
    row: t.row,
    latticeCol: t.latticeCol,
    latticeRow: t.latticeRow,
    height: t.height,
    crownCells: cells[n],
    crownDiameter: 2 * Math.sqrt((cells[n] * area) / Math.PI),
    key: t.key,
  }));
}
