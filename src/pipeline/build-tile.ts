import { createLocalFrame, type LocalFrame } from '../frame/local-frame.ts';
import { createOutputTransform } from '../frame/output-frame.ts';
import { JsonBytesWriter } from '../encode/json-bytes.ts';
import { writeMeshJson } from '../encode/mesh-json.ts';
import type { TileTask } from '../plan/plan-request.ts';
import { ownerTileKey } from '../plan/tiling.ts';
import type { BBox } from '../geometry/types.ts';
import type { LonLatBBox, OsmSource } from '../sources/osm/types.ts';
import { OsmStore } from '../sources/osm/store.ts';
import { readTaskTerrain } from './tile-terrain.ts';
import type { GridCoverage } from '../geometry/terrain/elevation-grid.ts';
import { buildTerrainMesh } from '../geometry/terrain/terrain-mesh.ts';
import type { GroundSampler } from '../geometry/terrain/ground-sampler.ts';
import type { Attribution } from './attributions.ts';
import type { FamilyOutput, TileContext, TileGroupResult } from '../features/family.ts';
import { FAMILIES } from '../features/index.ts';
import { clipSurfaceMesh, cropPolygon } from '../geometry/crop/index.ts';

export type { TileGroupResult };

/** The tile's elevation grid, sent back for the main thread to merge (heights are transferred). */
export interface TileGrid {
  bbox: BBox;
  columns: number;
  rows: number;
  heights: Float32Array;
}

export interface TileResult {
  key: number;
  /** Encoded items per output group key (`buildings`, `topography:meshes`, …). */
  groups: Record<string, TileGroupResult>;
  /** Elevation grid of the tile, whenever terrain was read (maps, and the fill of uncovered tiles). */
  elevation?: TileGrid;
  /** Credit lines of the sources that contributed, by id. */
  attributions: Attribution[];
  /** Milliseconds spent per stage, for the benchmark and logs. */
  timings: Record<string, number>;
  /** How much of the tile the DEM covered (absent when its ground came from the main thread). */
  coverage?: GridCoverage;
  /**
   * Set when the DEM did not cover the tile and its margin completely: nothing was built; these
   * are the samples read (NaN where no source has data), for the main thread to fill from the
   * covered samples of all tiles and send the tile again with that ground (tile-terrain.ts).
   */
  uncovered?: TileGrid;
  /** Local box (before the output transform) of the geometry the tile returned: terrain must reach under it. */
  extent?: BBox;
}

const stores = new Map<string, OsmSource>();
const frames = new Map<string, LocalFrame>();

/** Opens (once per thread) the OSM source at a path; tests may register a fixture source instead. */
export function osmSourceFor(path: string): OsmSource {
  let s = stores.get(path);
  if (!s) {
    s = OsmStore.open(path);
    stores.set(path, s);
  }
  return s;
}

export function registerOsmSource(path: string, source: OsmSource): void {
  stores.set(path, source);
}

function frameFor(origin: [number, number]): LocalFrame {
  const key = `${origin[0]},${origin[1]}`;
  let f = frames.get(key);
  if (!f) {
    if (frames.size > 64) frames.clear();
    f = createLocalFrame(origin[0], origin[1]);
    frames.set(key, f);
  }
  return f;
}

/** The lon/lat box that holds a local tile, padded so features at its edges are not missed. */
export function tileLonLatBBox(frame: LocalFrame, b: BBox, padMetres = 25): LonLatBBox {
  const xs = [b.minX - padMetres, (b.minX + b.maxX) / 2, b.maxX + padMetres];
  const ys = [b.minY - padMetres, (b.minY + b.maxY) / 2, b.maxY + padMetres];
  let minLon = Infinity, minLat = Infinity, maxLon = -Infinity, maxLat = -Infinity;
  for (const x of xs) for (const y of ys) {
    const [lon, lat] = frame.toLonLat(x, y);
    minLon = Math.min(minLon, lon); maxLon = Math.max(maxLon, lon);
    minLat = Math.min(minLat, lat); maxLat = Math.max(maxLat, lat);
  }
  return { minLon, minLat, maxLon, maxLat };
}

/**
 * Builds every requested group for one tile: its terrain first (the ground everything stands on),
 * then each feature family the request asks for (src/features). Pure apart from reading the sources.
 */
export async function buildTile(task: TileTask, signal?: AbortSignal): Promise<TileResult> {
  const timings: Record<string, number> = {};
  const attributions: Attribution[] = [];
  const frame = frameFor(task.origin);
  const toOutput = createOutputTransform({ origin: task.origin, crs: task.output.crs, upAxis: task.output.upAxis });
  const groups: Record<string, TileGroupResult> = {};
  let elevation: TileGrid | undefined;
  let ground: GroundSampler | undefined;
  let coverage: GridCoverage | undefined;
  const crop = task.crop ? cropPolygon(task.polygon) : undefined; // cropScene: one pass over the edges

  if (task.terrain) {
    const t = performance.now();
    const tile = await readTaskTerrain(task.terrain, frame, task.tile.bbox, signal);
    timings.terrain = performance.now() - t;
    attributions.push(...tile.attributions);
    coverage = tile.coverage;
    // Not (fully) covered by the DEM: build nothing on guessed ground; the main thread sends the tile again.
    if (tile.uncovered) return { key: task.key, groups, attributions, timings, coverage, uncovered: tile.uncovered };
    if (task.terrain.drape) ground = tile.ground;
    const { bbox, columns, rows, heights } = tile.grid;
    elevation = { bbox, columns, rows, heights: heights.slice() }; // for the maps, and for filling uncovered neighbours
    if (task.terrain.meshes) {
      const whole = buildTerrainMesh(tile.grid);
      const mesh = crop ? clipSurfaceMesh(whole, crop) : whole;
      const w = new JsonBytesWriter(1 << 14);
      if (mesh) {
        toOutput(mesh.positions);
        writeMeshJson(w, mesh, { type: 'terrain', tile: [task.tile.i, task.tile.j], ...(mesh !== whole ? { cropped: true } : {}) }, task.output.indexed);
      }
      groups['topography:meshes'] = { count: mesh ? 1 : 0, json: w.take() };
    }
  }

  const families = FAMILIES.filter((f) => f.wanted(task));
  if (families.length === 0) return { key: task.key, groups, elevation, attributions, timings, coverage };
  const taskKeys = new Set(task.taskKeys);
  const tile: TileContext = {
    task,
    frame,
    source: osmSourceFor(task.storePath),
    polygon: task.polygon,
    bbox: task.tile.bbox,
    lonLatBBox: (padMetres) => tileLonLatBBox(frame, task.tile.bbox, padMetres),
    owns: (a) => ownerTileKey(task.grid, taskKeys, a[0], a[1]) === task.key,
    ground,
    toOutput,
    crop,
  };
  const extent = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const out: FamilyOutput = { groups, attributions, timings, extend: (positions) => growExtent(extent, positions) };
  for (const family of families) await family.build(tile, out);
  return { key: task.key, groups, elevation, attributions, timings, coverage, extent: extent.minX <= extent.maxX ? extent : undefined };
}

/** Grows a box over the x/y of local z-up positions (before the output transform). */
function growExtent(box: BBox, p: Float64Array): void {
  for (let k = 0; k < p.length; k += 3) {
    const x = p[k], y = p[k + 1];
    if (x < box.minX) box.minX = x;
    if (x > box.maxX) box.maxX = x;
    if (y < box.minY) box.minY = y;
    if (y > box.maxY) box.maxY = y;
  }
}
