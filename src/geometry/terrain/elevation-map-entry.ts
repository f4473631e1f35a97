import type { ElevationGrid } from './elevation-grid.ts';

/** `info` of an elevation map entry (docs/design.md), with both spellings of the grid size. */
export interface ElevationMapInfo {
  /** Side of the square, metres. */
  terrainSize: number;
  /** Segments per side; the map has (segmentsCount + 1)² heights. */
  segmentsCount: number;
  /** Centre of the grid relative to the frame origin: x east, y north, metres. */
  moveVector: { x: number; y: number };
  width: number;
  height: number;
  segmentsWidth: number;
  segmentsHeight: number;
}

export interface ElevationMapEntry {
  /** Heights (m above sea level, mm precision), row-major, first row northernmost, first column westernmost. */
  elevationMap: number[];
  info: ElevationMapInfo;
  /**
   * cropScene only: one number per grid node in `elevationMap`'s order, 1 inside the polygon and 0
   * outside (src/geometry/crop/elevation-mask.ts; docs/crop.md). Heights stay real everywhere.
   */
  mask?: number[];
}

const mm = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The elevation map object of docs/design.md for a square grid (a tile's, or the merged one). A
 * three.js `PlaneGeometry(terrainSize, terrainSize, n, n)` rotated −90° about x and moved by
 * (moveVector.x, 0, −moveVector.y) lines up with it.
 */
export function elevationMapEntry(grid: ElevationGrid): ElevationMapEntry {
  const n = grid.columns - 1;
  if (grid.rows !== grid.columns) throw new Error(`elevation maps are square; got ${grid.columns}×${grid.rows} samples`);
  const size = grid.bbox.maxX - grid.bbox.minX;
  const elevationMap = new Array<number>(grid.heights.length);
  for (let k = 0; k < grid.heights.length; k++) elevationMap[k] = mm(grid.heights[k]);
  return {
    elevationMap,
    info: {
      terrainSize: mm(size),
      segmentsCount: n,
      moveVector: { x: mm((grid.bbox.minX + grid.bbox.maxX) / 2), y: mm((grid.bbox.minY + grid.bbox.maxY) / 2) },
      width: mm(size),
      height: mm(grid.bbox.maxY - grid.bbox.minY),
      segmentsWidth: n,
      segmentsHeight: grid.rows - 1,
    },
  };
}
