/**
 * How fine the terrain grid is. The rule, per request:
 *
 * 1. Follow the source: the smallest power-of-two number of segments per tile side whose spacing
 *    is at most the source's ground pixel size (`resolutionMetres` at the request's latitude), so
 *    every source pixel is represented and nothing finer than the data is invented.
 *    SRTM3 at Monaco (67 m east–west pixels) on 500 m tiles → 8 segments, 62.5 m.
 * 2. Bound the combined grid: tilesPerSide × segments ≤ `maxCombinedSegments` (512), so a 10 km²
 *    request (7 tiles of 500 m per side) gets at most 64 segments per tile, a 449² combined grid.
 * 3. Never finer than `minSpacing` (1 m).
 *
 * A power of two keeps `tileSize / segments` an exact binary fraction (tiles share their edge
 * samples exactly).
 */
export interface GridSpacingOptions {
  /** Side of a planning tile, metres. */
  tileSize: number;
  /** Tiles per side of the square the combined elevation map covers (max of columns and rows). */
  tilesPerSide: number;
  /** Source pixel size on the ground, metres (ElevationSource.resolutionMetresAt(lat)). */
  resolutionMetres: number;
  /** Largest combined grid, in segments per side. */
  maxCombinedSegments?: number;
  /** Smallest spacing, metres. */
  minSpacing?: number;
}

export const GRID_SPACING_DEFAULTS = { maxCombinedSegments: 512, minSpacing: 1 } as const;

export interface GridSpacing {
  /** Segments per tile side (a power of two). */
  segments: number;
  /** tileSize / segments, metres. */
  spacing: number;
}

export function chooseGridSpacing(options: GridSpacingOptions): GridSpacing {
  const { tileSize, tilesPerSide, resolutionMetres } = options;
  const maxCombined = options.maxCombinedSegments ?? GRID_SPACING_DEFAULTS.maxCombinedSegments;
  const minSpacing = options.minSpacing ?? GRID_SPACING_DEFAULTS.minSpacing;
  const wanted = nextPowerOfTwo(tileSize / Math.max(resolutionMetres, 1e-6));
  const byCombined = previousPowerOfTwo(maxCombined / Math.max(1, tilesPerSide));
  const byMinSpacing = previousPowerOfTwo(tileSize / minSpacing);
  const segments = Math.max(1, Math.min(wanted, byCombined, byMinSpacing));
  return { segments, spacing: tileSize / segments };
}

function nextPowerOfTwo(x: number): number {
  return x <= 1 ? 1 : 2 ** Math.ceil(Math.log2(x) - 1e-9);
}

function previousPowerOfTwo(x: number): number {
  return x < 1 ? 1 : 2 ** Math.floor(Math.log2(x) + 1e-9);
}
