import { createLocalFrame, type LocalFrame } from '../frame/local-frame.ts';
import { createOutputTransform } from '../frame/output-frame.ts';
import type { RoofShape } from '../geometry/buildings/build-part.ts';
import { JsonBytesWriter } from '../encode/json-bytes.ts';
import { writeMeshJson } from '../encode/mesh-json.ts';
import type { TileTask } from '../plan/plan-request.ts';
import { ownerTileKey } from '../plan/tiling.ts';
import type { BBox } from '../geometry/types.ts';
import type { LonLatBBox, OsmSource } from '../sources/osm/types.ts';
import { buildTileBuildings } from './tile-buildings.ts';
import { loadRoofs } from '../geometry/buildings/roofs/index.ts';
import { OsmStore } from '../sources/osm/store.ts';
import { readTileElevation } from '../sources/dem/read-tile-elevation.ts';
import { sharedElevationSource } from '../sources/dem/config.ts';
import { buildTerrainMesh } from '../geometry/terrain/terrain-mesh.ts';
import type { GroundSampler } from '../geometry/terrain/ground-sampler.ts';
import { OSM_ATTRIBUTION, type Attribution } from './attributions.ts';

/** One group's output for one tile: `count` JSON items joined by commas, ready to splice into the response. */
export interface TileGroupResult {
  count: number;
  json: Uint8Array;
}

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
  /** Elevation grid of the tile when elevation maps were asked for. */
  elevation?: TileGrid;
  /** Credit lines of the sources that contributed, by id. */
  attributions: Attribution[];
  /** Milliseconds spent per stage, for the benchmark and logs. */
  timings: Record<string, number>;
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

/** Builds every requested group for one tile. Pure apart from reading the sources. */
export async function buildTile(task: TileTask, signal?: AbortSignal): Promise<TileResult> {
  const timings: Record<string, number> = {};
  const attributions: Attribution[] = [];
  const frame = frameFor(task.origin);
  const taskKeys = new Set(task.taskKeys);
  const owns = (a: [number, number]) => ownerTileKey(task.grid, taskKeys, a[0], a[1]) === task.key;
  const toOutput = createOutputTransform({ origin: task.origin, crs: task.output.crs, upAxis: task.output.upAxis });
  const groups: Record<string, TileGroupResult> = {};
  let elevation: TileGrid | undefined;
  let ground: GroundSampler | undefined;

  if (task.terrain) {
    const t = performance.now();
    const dem = await sharedElevationSource(task.terrain.dem);
    const tile = await readTileElevation(dem, frame, task.tile.bbox, { segments: task.terrain.segments, signal });
    timings.terrain = performance.now() - t;
    if (task.terrain.drape) ground = tile.ground;
    attributions.push(...tile.attributions);
    const { bbox, columns, rows, heights } = tile.grid;
    if (task.terrain.maps) elevation = { bbox, columns, rows, heights: heights.slice() };
    if (task.terrain.meshes) {
      const mesh = buildTerrainMesh(tile.grid);
      toOutput(mesh.positions);
      const w = new JsonBytesWriter(1 << 14);
      writeMeshJson(w, mesh, { type: 'terrain', tile: [task.tile.i, task.tile.j] }, task.output.indexed);
      groups['topography:meshes'] = { count: 1, json: w.take() };
    }
  }

  if (task.groups.includes('buildings')) {
    let t = performance.now();
    await loadRoofs();
    const buildings = buildTileBuildings(osmSourceFor(task.storePath), tileLonLatBBox(frame, task.tile.bbox), {
      frame,
      polygon: task.polygon,
      defaultLevels: task.buildings.defaultLevels,
      defaultLevelHeight: task.buildings.defaultLevelHeight,
      defaultRoofType: task.buildings.defaultRoofType as RoofShape,
      owns,
      ground,
    });
    timings.build = performance.now() - t;
    t = performance.now();
    const w = new JsonBytesWriter(1 << 16);
    buildings.forEach((b, n) => {
      if (n > 0) w.byte(44);
      toOutput(b.mesh.positions);
      writeMeshJson(w, b.mesh, b.descriptor, task.output.indexed);
    });
    groups.buildings = { count: buildings.length, json: w.take() };
    timings.encode = performance.now() - t;
    attributions.push(OSM_ATTRIBUTION);
  }
  return { key: task.key, groups, elevation, attributions, timings };
}
