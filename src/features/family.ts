import type { GeometryGroup, GroupSpec, OutputSpec } from '../contract/groups.ts';
import type { ResponseWarning } from '../contract/response-schema.ts';
import type { ContextRequest, Settings } from '../contract/types.ts';
import type { LocalFrame } from '../frame/local-frame.ts';
import type { CropPolygon } from '../geometry/crop/crop-polygon.ts';
import type { GroundSampler } from '../geometry/terrain/ground-sampler.ts';
import type { BBox, Footprint, Ring } from '../geometry/types.ts';
import type { LonLatBBox } from '../osm-model/feature.ts';
import type { TileTask } from '../plan/plan-request.ts';
import type { TileGroupResult, TileResult } from '../plan/tile-result.ts';
import type { Attribution } from '../sources/attributions.ts';
import type { CanopySourceConfig } from '../sources/canopy/config.ts';
import type { OsmSource } from '../sources/osm/types.ts';

/**
 * A feature family (OSM2World's modules, Streets GL's handlers): one kind of thing in the model —
 * buildings, the ground, barriers, street furniture — behind one shape, registered with one line
 * in ./index.ts. A family names the geometry group it builds (a group of the spec, or a whole
 * `GroupSpec` of its own, which its registration adds to the contract's group table), may put
 * its settings into every tile task (`plan`, main thread), builds one tile at a time in a worker
 * (`build`: read the sources, parse tags into typed descriptions, build geometry in the local frame
 * with pure functions, encode), and may gather what the tiles reported once all are in
 * (`collect`, main thread). The tile task and the pipeline loop over the registered families and
 * never grow a branch per family.
 */
export interface FeatureFamily<Plan = unknown> {
  /** For logs and timings, and the key of its plan in `TileTask.plans`. */
  name: string;
  /** The group it builds. */
  group: GeometryGroup | GroupSpec;
  /** The response groups a request gets (default: every output of the group). */
  outputs?(settings: Settings): readonly OutputSpec[];
  /** Main thread: the family's settings for every tile task of a request (plain data, cloned into the workers). */
  plan?(req: ContextRequest, sources: FamilySources): Plan;
  /** Worker: builds the family's groups for one tile. */
  build(tile: TileContext, out: FamilyOutput): Promise<void> | void;
  /** Main thread: a per-request step fed every tile result, finished once every tile is in. */
  collect?(req: ContextRequest, sources: FamilySources): FamilyCollector;
}

/** Service configuration a family's plan or collect step may need (server settings, not the request's). */
export interface FamilySources {
  /** Canopy height models (CITY_CANOPY_SOURCES); null = none configured. */
  canopy: CanopySourceConfig[] | null;
  /** The ground cache's file and size bound (CITY_GROUND_CACHE); absent = none. */
  groundCache?: { path: string; maxBytes: number };
  /**
   * The premium building store and the datasets this request may use (absent = every dataset in
   * the store); null or absent = no premium buildings.
   */
  premium?: { storePath: string; datasets?: readonly string[] } | null;
}

/** A family's main-thread step over a whole request (e.g. the tree cap, which needs every tile's trees). */
export interface FamilyCollector {
  take(result: TileResult): void;
  /** Output chunks to add (once every tile is in) and warnings for the response. */
  finish(): { chunks: { key: string; json: Uint8Array; count: number }[]; warnings: ResponseWarning[] };
}

/** The plan a family put into a task (absent when the task was planned without it, e.g. terrain-only tiles). */
export function planOf<P>(family: FeatureFamily<P>, task: TileTask): P | undefined {
  return task.plans?.[family.name] as P | undefined;
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
  /** Whether this tile builds a feature anchored at this local point (geometry/anchor.ts). */
  owns(anchor: [number, number]): boolean;
  /** Ground height under a local point when geometry stands on terrain; absent = flat z = 0. */
  ground?: GroundSampler;
  /** Rewrites local z-up xyz positions in place into the output frame (crs, upAxis). */
  toOutput(positions: Float64Array): void;
  /** Set with cropScene: the polygon every family cuts its geometry to (src/geometry/crop). */
  crop?: CropPolygon;
  /**
   * The site within this tile that ground and terrain cover (geometry/crop/site.ts): the polygon
   * plus the outlines of the buildings crossing it (with cropScene, the polygon). Absent when the
   * tile's square lies wholly inside the polygon.
   */
  site?: CropPolygon;
}

/** Where families put what they built. */
export interface FamilyOutput {
  /** Encoded items per output key (`buildings`, `surface`, `surfaceLines`, …) and per tile report key. */
  groups: Record<string, TileGroupResult>;
  attributions: Attribution[];
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  /** Grows the local box of returned geometry (terrain must reach under it). */
  extend(positions: Float64Array): void;
  /**
   * Set by the ground family when it returns ground meshes: where it left the terrain bare (under
   * buildings). A terrain mesh in the same response then covers only these, so the two never
   * lie on each other.
   */
  bareGround?: Footprint[];
  /** Set by the buildings family: the premium datasets that gave this tile any building. */
  premiumDatasets?: string[];
}
