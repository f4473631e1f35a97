/**
 * What a tile task sends back from its worker: the main thread ↔ worker protocol's answer side
 * (the question side is `TileTask`, plan-request.ts). Plain data and typed arrays, moved, not copied.
 */
import type { GridCoverage } from '../geometry/terrain/elevation-grid.ts';
import type { BBox } from '../geometry/types.ts';
import type { Attribution } from '../sources/attributions.ts';

/**
 * One group's output for one tile: `count` JSON items joined by commas, ready to splice into the
 * response — or, for an export's meshes, one binary chunk of them (src/encode/mesh-binary.ts).
 */
export interface TileGroupResult {
  count: number;
  json: Uint8Array;
  /** Items that a request-wide cap may drop (trees): each item's cap rank, and where it ends in `json` (items are not comma-joined). */
  ranks?: Float64Array;
  ends?: Uint32Array;
}

/** A tile's elevation grid, sent back for the main thread to merge (heights are transferred). */
export interface TileElevation {
  bbox: BBox;
  columns: number;
  rows: number;
  heights: Float32Array;
}

/**
 * Keys of what a tile reports beyond the response's output groups (those are keyed by the group
 * table's output keys, src/contract/groups.ts): a family's main-thread collect step reads them.
 */
export const TILE_REPORTS = {
  /** The instances family's trees and shrubs with their cap ranks: whether one is kept depends on the whole request. */
  cappedTrees: 'instances:trees',
  /** The instances family's canopy coverage, for the request's warnings. */
  canopy: 'instances:canopy',
  /** The ground family: this tile's sea could not be decided (no coastline within reach), for the request's warnings. */
  seaUndecided: 'surface:seaUndecided',
} as const;

export interface TileResult {
  key: number;
  /** Encoded items per output key (`buildings`, `topography:meshes`, …) and per TILE_REPORTS key. */
  groups: Record<string, TileGroupResult>;
  /** Elevation grid of the tile, whenever terrain was read (maps, and the fill of uncovered tiles). */
  elevation?: TileElevation;
  /** Credit lines of the sources that contributed, by id. */
  attributions: Attribution[];
  /** Premium datasets that gave this tile any building (their credit lines are in `attributions`). */
  premiumDatasets?: string[];
  /** Milliseconds spent per stage, for the benchmark and logs. */
  timings: Record<string, number>;
  /** How much of the tile the DEM covered (absent when its ground came from the main thread). */
  coverage?: GridCoverage;
  /**
   * Set when the DEM did not cover the tile and its margin completely: nothing was built; these are
   * the samples read (NaN where no source has data), for the main thread to fill from the covered
   * samples of all tiles and send the tile again with that ground
   * (src/features/terrain/tile-terrain.ts).
   */
  uncovered?: TileElevation;
  /** Local box (before the output transform) of the geometry the tile returned: terrain must reach under it. */
  extent?: BBox;
}
