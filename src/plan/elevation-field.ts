import type { ElevationGrid } from '../geometry/terrain/elevation-grid.ts';
import { fillVoids } from '../geometry/terrain/fill-voids.ts';
import type { BBox } from '../geometry/types.ts';

/**
 * The main thread's view of a request's terrain when the DEM did not cover all of it: every grid
 * the tiles read (NaN where no source had data), laid on their common lattice in one rectangle and
 * filled from the covered samples (`fillVoids`). Tiles that could not be built from their own
 * window get their ground cut from this field, so seams and filled areas agree everywhere. Pure.
 */

/** Grid spacing shared by the grids (they all come from one request's lattice). */
function spacingOf(grids: readonly ElevationGrid[]): number {
  const g = grids[0];
  return (g.bbox.maxX - g.bbox.minX) / (g.columns - 1);
}

/**
 * One grid over the union of the grids' boxes, NaN where none of them has a value; where several
 * have one (shared edges, overlapping margins) the first non-NaN wins — covered samples of one
 * lattice point are equal in every grid.
 */
export function latticeMosaic(grids: readonly ElevationGrid[]): ElevationGrid {
  if (grids.length === 0) throw new Error('no grids to lay out');
  const s = spacingOf(grids);
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const g of grids) {
    minX = Math.min(minX, g.bbox.minX);
    minY = Math.min(minY, g.bbox.minY);
    maxX = Math.max(maxX, g.bbox.maxX);
    maxY = Math.max(maxY, g.bbox.maxY);
  }
  const columns = Math.round((maxX - minX) / s) + 1,
    rows = Math.round((maxY - minY) / s) + 1;
  const heights = new Float32Array(columns * rows).fill(NaN);
  for (const g of grids) {
    const c0 = Math.round((g.bbox.minX - minX) / s),
      r0 = Math.round((maxY - g.bbox.maxY) / s);
    for (let r = 0; r < g.rows; r++) {
      for (let c = 0; c < g.columns; c++) {
        const k = (r0 + r) * columns + c0 + c;
        if (Number.isNaN(heights[k])) heights[k] = g.heights[r * g.columns + c];
      }
    }
  }
  return { bbox: { minX, minY, maxX: minX + (columns - 1) * s, maxY: minY + (rows - 1) * s }, columns, rows, heights };
}

/**
 * The filled field of a set of grids, or null when none of them holds a single covered sample
 * (no elevation data at all: nothing to fill from).
 */
export function filledField(grids: readonly ElevationGrid[]): ElevationGrid | null {
  if (grids.length === 0) return null;
  const field = latticeMosaic(grids);
  return fillVoids(field.heights, field.columns, field.rows) > 0 ? null : field;
}

/**
 * The part of a field inside `bbox` (a box on the field's lattice, inside the field), as a grid
 * whose bbox is `bbox` exactly, so that it lines up bit for bit with a tile's own box.
 */
export function cutField(field: ElevationGrid, bbox: BBox): ElevationGrid {
  const s = (field.bbox.maxX - field.bbox.minX) / (field.columns - 1);
  const c0 = Math.round((bbox.minX - field.bbox.minX) / s),
    r0 = Math.round((field.bbox.maxY - bbox.maxY) / s);
  const columns = Math.round((bbox.maxX - bbox.minX) / s) + 1,
    rows = Math.round((bbox.maxY - bbox.minY) / s) + 1;
  if (c0 < 0 || r0 < 0 || c0 + columns > field.columns || r0 + rows > field.rows) throw new Error('box reaches outside the field');
  const heights = new Float32Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    const from = (r0 + r) * field.columns + c0;
    heights.set(field.heights.subarray(from, from + columns), r * columns);
  }
  return { bbox: { ...bbox }, columns, rows, heights };
}
