/**
 * Tree detection from a canopy height model (CHM): pure functions on a height grid. The grid is
 * a rectangle of a raster's own pixel lattice (no resampling: a top is a measured pixel), and
 * `col0`/`row0` place it in that lattice, so that every choice that breaks a tie (plateaus,
 * equal tops, the order crowns grow in) is made alike by every tile that reads the same pixels.
 */

/** A rectangle of canopy heights. */
export interface CanopyGrid {
  /** Heights above ground, metres, row-major, row 0 first; NaN = no data. */
  data: Float32Array;
  width: number;
  height: number;
  /** Side of a cell on the ground, metres. */
  cellSize: number;
  /** Lattice column and row of cell (0, 0): ties are broken in lattice order (default 0). */
  col0?: number;
  row0?: number;
}

export interface CanopyDetectOptions {
  /** Cells lower than this are never a treetop (request `canopyMinHeight`), metres. */
  minHeight: number;
  /** Of two tops closer than this the lower one is dropped (request `canopyMinSpacing`), metres. */
  minSpacing: number;
  /** Window radius = windowSlope × height + windowIntercept, metres (variable window filter). */
  windowSlope: number;
  windowIntercept: number;
  /** A crown cell is at least this high, metres… */
  crownMinHeight: number;
  /** …and at least this share of its treetop's height (the crown base; below it is trunk or understorey). */
  crownHeightShare: number;
  /** No crown cell lies farther than this from its treetop, metres (also bounds what a tile must read around itself). */
  maxCrownRadius: number;
  /** Tallest tree the window radius is planned for, metres (taller trees still count; their window is capped). */
  maxTreeHeight: number;
}

/** What a canopy source's configuration may tune (the request sets minHeight and minSpacing). */
export type CanopyDetectTuning = Partial<
  Pick<CanopyDetectOptions, 'windowSlope' | 'windowIntercept' | 'crownMinHeight' | 'crownHeightShare' | 'maxCrownRadius'>
>;

export const CANOPY_DETECT_DEFAULTS: Readonly<CanopyDetectOptions> = {
  minHeight: 3,
  minSpacing: 3,
  windowSlope: 0.05,
  windowIntercept: 0.6,
  crownMinHeight: 2,
  crownHeightShare: 0.3,
  maxCrownRadius: 12,
  maxTreeHeight: 100,
};

/** One detected tree, in the grid's cell coordinates (cell (c, r) has its centre at (c, r)). */
export interface DetectedTree {
  /** Position of the top: fractional column and row (a plateau's centroid, else the top cell refined by a parabola). */
  col: number;
  row: number;
  /** The same in the lattice (col0 + col, row0 + row), bit for bit the same whichever window found the tree. */
  latticeCol: number;
  latticeRow: number;
  /** Measured top height, metres. */
  height: number;
  /** Diameter of the circle with the crown's area, metres. */
  crownDiameter: number;
  /** Cells in the crown. */
  crownCells: number;
  /** Lattice index of the top's cell (row-major in lattice order; unique, stable across tiles). */
  key: number;
}

/** Window radius of the variable window filter at a height, metres. */
export function windowRadius(height: number, o: Pick<CanopyDetectOptions, 'windowSlope' | 'windowIntercept' | 'maxTreeHeight'>): number {
  return o.windowSlope * Math.min(height, o.maxTreeHeight) + o.windowIntercept;
}

/**
 * How far around a region a tile must read the CHM so that every tree whose top lies in the
 * region is decided as with the whole raster: a top's window and the taller tops that may
 * suppress it (min spacing) with their own windows; for its crown, every cell within a crown
 * radius of it, the seeds that can reach those cells (within 2 radii) and the cells their floods
 * pass through (within 3). Longer chains of influence (a cell a third seed took first) are
 * possible in principle; the tiling property tests have never met one.
 */
export function detectionMargin(o: CanopyDetectOptions, cellSize: number): number {
  return 2 * windowRadius(o.maxTreeHeight, o) + o.minSpacing + 3 * o.maxCrownRadius + 3 * cellSize;
}
