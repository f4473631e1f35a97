import { createLocalFrame, type LocalFrame } from '../frame/local-frame.ts';
import { createOutputTransform } from '../frame/output-frame.ts';
import { buildBuildings } from '../geometry/buildings/from-osm.ts';
import type { RoofShape } from '../geometry/buildings/build-part.ts';
import { JsonBytesWriter } from '../encode/json-bytes.ts';
import { writeMeshJson } from '../encode/mesh-json.ts';
import type { TileTask } from '../plan/plan-request.ts';
import { ownerTileKey } from '../plan/tiling.ts';
import type { BBox } from '../geometry/types.ts';
import type { LonLatBBox, OsmSource } from '../sources/osm/types.ts';
import { OsmStore } from '../sources/osm/store.ts';

/** One group's output for one tile: `count` JSON items joined by commas, ready to splice into the response. */
export interface TileGroupResult {
  count: number;
  json: Uint8Array;
}

export interface TileResult {
  key: number;
  groups: Record<string, TileGroupResult>;
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
export function buildTile(task: TileTask): TileResult {
  const timings: Record<string, number> = {};
  const frame = frameFor(task.origin);
  const taskKeys = new Set(task.taskKeys);
  const owns = (a: [number, number]) => ownerTileKey(task.grid, taskKeys, a[0], a[1]) === task.key;
  const toOutput = createOutputTransform({ origin: task.origin, crs: task.output.crs, upAxis: task.output.upAxis });
  const groups: Record<string, TileGroupResult> = {};

  if (task.groups.includes('buildings')) {
    let t = performance.now();
    const features = osmSourceFor(task.storePath).query(tileLonLatBBox(frame, task.tile.bbox), ['building']);
    timings.query = performance.now() - t;
    t = performance.now();
    const buildings = buildBuildings(features, {
      frame,
      polygon: task.polygon,
      defaultLevels: task.buildings.defaultLevels,
      defaultLevelHeight: task.buildings.defaultLevelHeight,
      defaultRoofType: task.buildings.defaultRoofType as RoofShape,
      owns,
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
  }
  return { key: task.key, groups, timings };
}
