import type { LocalFrame } from '../frame/local-frame.ts';
import type { GroundSampler } from '../geometry/terrain/ground-sampler.ts';
import type { BBox, Ring } from '../geometry/types.ts';
import type { TileTask } from '../plan/plan-request.ts';
import type { LonLatBBox, OsmSource } from '../sources/osm/types.ts';
import type { Attribution } from '../pipeline/attributions.ts';
import type { CropPolygon } from '../geometry/crop/crop-polygon.ts';

/**
 * A feature family (OSM2World's modules, Streets GL's handlers): one kind of thing in the model —
 * buildings, the ground, barriers, street furniture — behind one shape. A family says when a
 * task needs it, reads what it needs from the sources, parses tags into typed descriptions (its
 * own tag parsers, one per file) and builds geometry in the local frame with pure functions, then
 * encodes its output groups. The tile task runs the families a request asks for, in order, and
 * never grows a branch per family.
 */
export interface FeatureFamily {
  /** For logs and timings. */
  name: string;
  /** Whether the task asks for anything this family builds. */
  wanted(task: TileTask): boolean;
  build(tile: TileContext, out: FamilyOutput): Promise<void> | void;
}

/** What every family gets for one tile. */
export interface TileContext {
  task: TileTask;
  /** The request's local frame (x east, y north, metres from the origin). */
  frame: LocalFrame;
  source: OsmSource;
  /** The request polygon in the local frame (closed ring without the closing duplicate). */
  polygon: Ring;
  /** The tile's square in the local frame. */
  bbox: BBox;
  /** The tile's square with a margin, in lon/lat, for store queries. */
  lonLatBBox(padMetres?: number): LonLatBBox;
  /** Whether this tile builds a feature anchored at this local point (plan/tiling.ts). */
  owns(anchor: [number, number]): boolean;
  /** Ground height under a local point when geometry stands on terrain; absent = flat z = 0. */
  ground?: GroundSampler;
  /** Rewrites local z-up xyz positions in place into the output frame (crs, upAxis). */
  toOutput(positions: Float64Array): void;
  /** Set with cropScene: the polygon every family cuts its geometry to (src/geometry/crop). */
  crop?: CropPolygon;
}

/** One group's output for one tile: `count` JSON items joined by commas, ready to splice into the response. */
export interface TileGroupResult {
  count: number;
  json: Uint8Array;
  /** Items that a request-wide cap may drop (trees): each item's cap rank, and where it ends in `json` (items are not comma-joined). */
  ranks?: Float64Array;
  ends?: Uint32Array;
}

/** Where families put what they built. */
export interface FamilyOutput {
  /** Encoded items per output group key (`buildings`, `surface`, `surfaceLines`, …). */
  groups: Record<string, TileGroupResult>;
  attributions: Attribution[];
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  /** Grows the local box of returned geometry (terrain must reach under it). */
  extend(positions: Float64Array): void;
}
