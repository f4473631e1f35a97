import type { LocalFrame } from '../../frame/local-frame.ts';
import type { GeoBox } from '../../frame/geo-box.ts';
import type { BBox } from '../types.ts';
import { fillVoids } from './fill-voids.ts';

/**
 * A regular grid of ground heights in the local frame (metres above sea level). Row 0 is the
 * northern edge (y = bbox.maxY), column 0 the western edge (x = bbox.minX); the last row and
 * column lie exactly on bbox.minY and bbox.maxX, as in the elevation maps of docs/design.md.
 */
export interface ElevationGrid {
  bbox: BBox;
  /** Samples per row (segments across + 1). */
  columns: number;
  /** Samples per column (segments down + 1). */
  rows: number;
  /** rows × columns heights, row-major, north row first. */
  heights: Float32Array;
}

/** Anything that gives a height for WGS84 lon/lat without I/O (an ElevationWindow, or a function). */
export type LonLatSampler = ((lon: number, lat: number) => number) | { sample(lon: number, lat: number): number };

export interface TileGridOptions {
  /** Extra cells sampled around the tile on every side (for a ground sampler that reaches past the tile). */
  marginCells?: number;
  /** Height used when the source covers none of the grid (metres; 0 = sea level). */
  fallbackHeight?: number;
  /**
   * Fill the samples the source does not cover from their covered neighbours (default). With
   * false they stay NaN, for a caller that fills them from a wider context (the main thread).
   */
  fill?: boolean;
}

/**
 * How much of a tile grid real data covered. Voids *inside* a source's data are filled by the
 * source itself and count as covered; what is counted here is where no source has data at all.
 */
export interface GridCoverage {
  /** Samples of the tile's own grid (margin excluded) that a source covered. */
  covered: number;
  /** Samples of the tile's own grid: (segments + 1)². */
  samples: number;
  /** Every sample, margin included, was covered: nothing had to be filled. */
  complete: boolean;
  /** At least one sample, margin included, was covered. */
  any: boolean;
}

/**
 * Coordinate of lattice line k of a tile side [min, max] cut into `segments`. Lines 0 and
 * `segments` are exactly `min` and `max`, so the tiles on either side of an edge compute the very
 * same coordinates (and therefore the same heights) for it; beyond the tile the lattice continues.
 */
export function latticeCoordinate(min: number, max: number, segments: number, k: number): number {
  if (k === segments) return max;
  if (k > segments) return max + ((k - segments) * (max - min)) / segments;
  return min + (k * (max - min)) / segments;
}

/**
 * Samples the elevation of a square tile on a (segments+1)² lattice (plus `marginCells` on every
 * side) in the local frame: each lattice point is converted to lon/lat and sampled bilinearly.
 * Points the source does not cover are filled from their neighbours (never left as holes) unless
 * `fill` is false; `coverage` says how many were covered. The tile's own samples are a function of the tile's bbox edges and the point only, so two tiles
 * sharing an edge produce bit-identical heights along it.
 *
 * Returns the tile's grid (bbox = the tile, (segments+1)² samples) with the margin-extended grid
 * it was cut from in `padded`.
 *
 * @example
 * const window = await source.readWindow(lonLatBBoxOfLocal(frame, tile, 200));
 * const grid = elevationGridForTile(window, frame, tile, 8, { marginCells: 2 });
 * const ground = createGroundSampler(grid.padded);
 */
export function elevationGridForTile(
  sampler: LonLatSampler,
  frame: LocalFrame,
  tileBBox: BBox,
  segments: number,
  options: TileGridOptions = {},
): TileElevationGrid {
  const m = options.marginCells ?? 0;
  const sample = typeof sampler === 'function' ? sampler : (lon: number, lat: number) => sampler.sample(lon, lat);
  const size = segments + 1 + 2 * m;
  const xs = new Float64Array(size),
    ys = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    xs[k] = latticeCoordinate(tileBBox.minX, tileBBox.maxX, segments, k - m);
    // Row 0 is north: row r is lattice line (segments - r) counted from minY.
    ys[k] = latticeCoordinate(tileBBox.minY, tileBBox.maxY, segments, segments - (k - m));
  }
  const heights = new Float32Array(size * size);
  let covered = 0,
    coveredAll = 0;
  for (let r = 0; r < size; r++) {
    const inCore = r >= m && r < size - m;
    for (let c = 0; c < size; c++) {
      const [lon, lat] = frame.toLonLat(xs[c], ys[r]);
      const h = sample(lon, lat);
      heights[r * size + c] = h;
      if (Number.isNaN(h)) continue;
      coveredAll++;
      if (inCore && c >= m && c < size - m) covered++;
    }
  }
  const coverage: GridCoverage = { covered, samples: (segments + 1) ** 2, complete: coveredAll === size * size, any: coveredAll > 0 };
  if (options.fill !== false && fillVoids(heights, size, size) > 0) heights.fill(options.fallbackHeight ?? 0);
  const padded: ElevationGrid = { bbox: { minX: xs[0], minY: ys[size - 1], maxX: xs[size - 1], maxY: ys[0] }, columns: size, rows: size, heights };
  const core = cropElevationGrid(padded, m, { ...tileBBox });
  return { ...core, padded, coverage };
}

/** A tile's grid plus the margin-extended grid around it (the same object's data when there is no margin). */
export interface TileElevationGrid extends ElevationGrid {
  padded: ElevationGrid;
  coverage: GridCoverage;
}

/** The grid without `cells` samples on every side; its bbox is `bbox` when given, else recomputed from the spacing. */
export function cropElevationGrid(grid: ElevationGrid, cells: number, bbox?: BBox): ElevationGrid {
  if (cells === 0) return { ...grid, bbox: bbox ?? grid.bbox };
  const columns = grid.columns - 2 * cells,
    rows = grid.rows - 2 * cells;
  if (columns < 2 || rows < 2) throw new Error('crop leaves less than one cell');
  const heights = new Float32Array(columns * rows);
  for (let r = 0; r < rows; r++) {
    const src = (r + cells) * grid.columns + cells;
    heights.set(grid.heights.subarray(src, src + columns), r * columns);
  }
  const dx = (grid.bbox.maxX - grid.bbox.minX) / (grid.columns - 1),
    dy = (grid.bbox.maxY - grid.bbox.minY) / (grid.rows - 1);
  const box = bbox ?? {
    minX: grid.bbox.minX + cells * dx,
    maxX: grid.bbox.maxX - cells * dx,
    minY: grid.bbox.minY + cells * dy,
    maxY: grid.bbox.maxY - cells * dy,
  };
  return { bbox: box, columns, rows, heights };
}

/** Cell size of a grid (x and y), metres. */
export function gridSpacing(grid: ElevationGrid): { dx: number; dy: number } {
  return { dx: (grid.bbox.maxX - grid.bbox.minX) / (grid.columns - 1), dy: (grid.bbox.maxY - grid.bbox.minY) / (grid.rows - 1) };
}

/**
 * Lon/lat box around a local box (its edges densified, since they are curves in lon/lat),
 * grown by `padMetres` on every side.
 */
export function lonLatBBoxOfLocal(frame: LocalFrame, bbox: BBox, padMetres = 0): GeoBox {
  const minX = bbox.minX - padMetres,
    maxX = bbox.maxX + padMetres,
    minY = bbox.minY - padMetres,
    maxY = bbox.maxY + padMetres;
  let west = Infinity,
    east = -Infinity,
    south = Infinity,
    north = -Infinity;
  const steps = 8;
  for (let s = 0; s <= steps; s++) {
    const x = minX + ((maxX - minX) * s) / steps,
      y = minY + ((maxY - minY) * s) / steps;
    for (const [px, py] of [
      [x, minY],
      [x, maxY],
      [minX, y],
      [maxX, y],
    ]) {
      const [lon, lat] = frame.toLonLat(px, py);
      west = Math.min(west, lon);
      east = Math.max(east, lon);
      south = Math.min(south, lat);
      north = Math.max(north, lat);
    }
  }
  return { west, south, east, north };
}
