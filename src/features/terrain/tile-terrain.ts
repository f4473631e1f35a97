import type { LocalFrame } from '../../frame/local-frame.ts';
import type { ElevationGrid, GridCoverage } from '../../geometry/terrain/elevation-grid.ts';
import { createGroundSampler, type GroundSampler } from '../../geometry/terrain/ground-sampler.ts';
import type { BBox } from '../../geometry/types.ts';
import { cutField } from '../../plan/elevation-field.ts';
import type { TerrainPlan } from '../../plan/plan-request.ts';
import { sharedElevationSource } from '../../sources/dem/config.ts';
import { readTileElevation } from '../../sources/dem/read-tile-elevation.ts';
import type { Attribution } from '../../sources/attributions.ts';

/** A tile's terrain as the worker uses it. */
export interface TileTerrain {
  /** The tile's own grid ((segments + 1)², bbox = the tile), every sample real or filled. */
  grid: ElevationGrid;
  /** Ground under features, over the tile and its margin. */
  ground: GroundSampler;
  attributions: readonly Attribution[];
  /** What the DEM covered; absent when the ground came from the main thread (counted on the first read). */
  coverage?: GridCoverage;
  /**
   * Set when the DEM did not cover the tile and its margin completely: the samples read, NaN where
   * no source has data. The tile must not be built from them; the main thread fills them from the
   * covered samples of every tile (one fill for all, so tiles agree at their seams) and sends the
   * tile again with that ground.
   */
  uncovered?: ElevationGrid;
}

/**
 * Reads the terrain of one task: the ground the main thread sent, or the DEM window around the
 * tile. Partly covered windows are never filled here, only reported (see `uncovered`).
 */
export async function readTaskTerrain(terrain: TerrainPlan, frame: LocalFrame, tileBBox: BBox, signal?: AbortSignal): Promise<TileTerrain> {
  if (terrain.ground) {
    return { grid: cutField(terrain.ground, tileBBox), ground: createGroundSampler(terrain.ground), attributions: [] };
  }
  const dem = await sharedElevationSource(terrain.dem);
  const tile = await readTileElevation(dem, frame, tileBBox, { segments: terrain.segments, marginMetres: terrain.marginMetres, fill: false, signal });
  const { coverage } = tile.grid;
  if (!coverage.complete) return { grid: tile.grid, ground: tile.ground, attributions: tile.attributions, coverage, uncovered: tile.grid.padded };
  return { grid: tile.grid, ground: tile.ground, attributions: tile.attributions, coverage };
}
