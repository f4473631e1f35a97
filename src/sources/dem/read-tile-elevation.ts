import type { LocalFrame } from '../../frame/local-frame.ts';
import { elevationGridForTile, lonLatBBoxOfLocal, type TileElevationGrid } from '../../geometry/terrain/elevation-grid.ts';
import { createGroundSampler, type GroundSampler } from '../../geometry/terrain/ground-sampler.ts';
import type { BBox } from '../../geometry/types.ts';
import type { DemAttribution, ElevationSource } from './types.ts';

export interface TileElevationOptions {
  /** Segments per tile side, from `chooseGridSpacing` (decided once per request, the same for every tile). */
  segments: number;
  /** Ground known this far around the tile, metres, for features that cross its edge. */
  marginMetres?: number;
  /** Fill samples no source covers from covered neighbours (default true); see `grid.coverage`. */
  fill?: boolean;
  signal?: AbortSignal;
}

export const TILE_ELEVATION_DEFAULTS = { marginMetres: 250 } as const;

export interface TileElevation {
  /**
   * The tile's grid ((segments+1)², bbox = the tile); `grid.padded` reaches `marginMetres` further;
   * `grid.coverage` says how much of it real data covered.
   */
  grid: TileElevationGrid;
  /** Ground height at local (x, y), bilinear over the padded grid. */
  ground: GroundSampler;
  /** Credit lines of the sources that supplied data. */
  attributions: readonly DemAttribution[];
  /** Decoded bytes of the window read (diagnostics). */
  windowBytes: number;
}

/**
 * What a worker calls per tile: reads the DEM window around the tile (only the blocks it touches;
 * decoded blocks stay cached in the thread), samples the tile's grid plus a margin, and returns
 * the grid (for elevation maps and meshes) and the ground sampler (for placing features).
 *
 * @example
 * const dem = await sharedElevationSource(config.dem);
 * const { grid, ground, attributions } = await readTileElevation(dem, frame, tile.bbox, { segments: task.terrainSegments });
 */
export async function readTileElevation(source: ElevationSource, frame: LocalFrame, tileBBox: BBox, options: TileElevationOptions): Promise<TileElevation> {
  const { segments } = options;
  const spacing = (tileBBox.maxX - tileBBox.minX) / segments;
  const marginCells = Math.ceil((options.marginMetres ?? TILE_ELEVATION_DEFAULTS.marginMetres) / spacing);
  const reach = marginCells * spacing;
  const padded: BBox = { minX: tileBBox.minX - reach, minY: tileBBox.minY - reach, maxX: tileBBox.maxX + reach, maxY: tileBBox.maxY + reach };
  const window = await source.readWindow(lonLatBBoxOfLocal(frame, padded, spacing), { resolutionMetres: spacing, signal: options.signal });
  const grid = elevationGridForTile(window, frame, tileBBox, segments, { marginCells, fill: options.fill });
  return { grid, ground: createGroundSampler(grid.padded), attributions: window.attributions, windowBytes: window.byteSize };
}
