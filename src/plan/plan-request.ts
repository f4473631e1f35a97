import type { ContextRequest, GeometryGroup } from '../contract/types.ts';
import { createLocalFrame, type LocalFrame } from '../frame/local-frame.ts';
import type { Ring } from '../geometry/types.ts';
import { chooseGridSpacing } from '../geometry/terrain/grid-spacing.ts';
import type { ElevationGrid } from '../geometry/terrain/elevation-grid.ts';
import type { DemSourceConfig } from '../sources/dem/config.ts';
import { tileGridFor, tileKey, tilesTouchingPolygon, type Tile, type TileGrid } from './tiling.ts';

/** Decimals of an export's tile items: micrometres, so the file's one rounding is the geometry's own millimetre grid. */
export const EXPORT_DECIMALS = 6;

/** Terrain work of a request: which outputs, and the grid every tile samples (same for all tiles). */
export interface TerrainPlan {
  /** Segments per tile side of the elevation grid (chooseGridSpacing). */
  segments: number;
  /** Return elevation grids (for elevation maps). */
  maps: boolean;
  /** Return terrain meshes. */
  meshes: boolean;
  /** Stand buildings (and later all geometry) on the terrain. */
  drape: boolean;
  /** DEM sources (null = the bundled default). */
  dem: DemSourceConfig[] | null;
  /**
   * DEM read around the tile, metres (default 250: ground for features that cross the tile's
   * edge). Terrain-only tiles read none.
   */
  marginMetres?: number;
  /**
   * Ground the main thread already knows for this tile and its margin (cut from the filled field
   * when the DEM did not cover the tile; src/plan/elevation-field.ts): used instead of the DEM.
   */
  ground?: ElevationGrid;
}

/** Everything a worker needs to build one tile; plain data, cheap to clone into a worker. */
export interface TileTask {
  /** tileKey of a polygon tile; negative for a terrain-only tile outside the grid's tasks. */
  key: number;
  tile: Tile;
  grid: TileGrid;
  /** Keys of every task tile of the request, for the ownership rule. */
  taskKeys: number[];
  /** Request polygon in local metres, without the closing duplicate. */
  polygon: Ring;
  origin: [number, number];
  /** Groups to build; empty for a terrain-only tile. */
  groups: GeometryGroup[];
  /** Each feature family's settings for this request, by family name (src/features: `plan` and `planOf`). */
  plans?: Record<string, unknown>;
  /**
   * `decimals`: how finely the JSON items are rounded — millimetres (3) for an answer, micrometres (6)
   * for an export, whose writers reproject them (src/encode/json-bytes.ts). `binaryMeshes`: an
   * export's meshes go as binary chunks of exact doubles instead (src/encode/mesh-binary.ts).
   */
  output: { crs: ContextRequest['settings']['crs']; upAxis: 'Y' | 'Z'; indexed: boolean; decimals: number; binaryMeshes: boolean };
  storePath: string;
  terrain: TerrainPlan | null;
  /** cropScene: cut every group exactly along the polygon (src/geometry/crop). */
  crop: boolean;
  /**
   * The site ground and terrain cover, in local metres (geometry/crop/site.ts), when it is more
   * than the polygon: computed once per request by the main thread, so every tile cuts along the
   * very same ring and neighbours meet at their seams.
   */
  site?: Ring;
}

export interface RequestPlan {
  frame: LocalFrame;
  polygon: Ring;
  grid: TileGrid;
  tasks: TileTask[];
  /** The requested groups, in the caller's order. */
  groups: GeometryGroup[];
  terrain: TerrainPlan | null;
}

export interface PlanOptions {
  tileSize: number;
  storePath: string;
  dem: DemSourceConfig[] | null;
  /** Ground resolution of the DEM at the origin, metres (only needed when terrain is used). */
  demResolutionMetres?: number;
  /** The feature families' settings, given to every task (src/features/index.ts planFamilies). */
  plans?: Record<string, unknown>;
}

/** Terrain is read when it is returned or when geometry must stand on it. */
export function needsTerrain(req: ContextRequest): boolean {
  return req.settings.geometry.includes('topography') || req.settings.projectToTopography;
}

/** Puts the polygon into the local frame and cuts it into tile tasks. */
export function planRequest(req: ContextRequest, opts: PlanOptions): RequestPlan {
  const frame = createLocalFrame(req.origin[0], req.origin[1]);
  const polygon: Ring = [];
  for (let k = 0; k < req.polygon.length - 1; k++) {
    const [lat, lon] = req.polygon[k];
    polygon.push(...frame.toLocal(lon, lat));
  }
  const grid = tileGridFor(polygon, opts.tileSize);
  const tiles = tilesTouchingPolygon(grid, polygon);
  const taskKeys = tiles.map((t) => tileKey(grid, t.i, t.j));
  const groups = req.settings.geometry;
  const s = req.settings;
  let terrain: TerrainPlan | null = null;
  if (needsTerrain(req)) {
    const { segments } = chooseGridSpacing({
      tileSize: opts.tileSize,
      // + 2: the terrain may grow by a ring of tiles to reach under buildings that cross the boundary.
      tilesPerSide: Math.max(grid.columns, grid.rows) + 2,
      resolutionMetres: opts.demResolutionMetres ?? 30,
    });
    const topo = groups.includes('topography');
    terrain = {
      segments,
      maps: topo && s.topographyReturnType !== 'meshes',
      meshes: topo && s.topographyReturnType !== 'elevationMap',
      drape: true,
      dem: opts.dem,
    };
  }
  const tasks = tiles.map(
    (tile, n): TileTask => ({
      key: taskKeys[n],
      tile,
      grid,
      taskKeys,
      polygon,
      origin: req.origin,
      groups,
      plans: opts.plans,
      output: { crs: s.crs, upAxis: s.upAxis, indexed: s.indexedMeshes, decimals: req.export ? EXPORT_DECIMALS : 3, binaryMeshes: req.export !== undefined },
      storePath: opts.storePath,
      terrain,
      crop: s.cropScene,
    }),
  );
  return { frame, polygon, grid, tasks, groups, terrain };
}
