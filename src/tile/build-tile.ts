import { createLocalFrame, type LocalFrame } from '../frame/local-frame.ts';
import { createOutputTransform } from '../frame/output-frame.ts';
import type { TileTask } from '../plan/plan-request.ts';
import type { TileElevation, TileGroupResult, TileResult } from '../plan/tile-result.ts';
import { ownerTileKey } from '../plan/tiling.ts';
import type { BBox } from '../geometry/types.ts';
import type { GridCoverage } from '../geometry/terrain/elevation-grid.ts';
import type { GroundSampler } from '../geometry/terrain/ground-sampler.ts';
import type { LonLatBBox } from '../osm-model/feature.ts';
import type { OsmSource } from '../sources/osm/types.ts';
import type { Attribution } from '../sources/attributions.ts';
import type { FamilyOutput, TileContext } from '../features/family.ts';
import { familiesFor } from '../features/index.ts';
import { terrainFamily, type TileTerrainStep } from '../features/terrain/index.ts';
import { boxRelation, cropPolygon, type CropPolygon } from '../geometry/crop/index.ts';
import { tileOsmSource } from './osm-sources.ts';

const frames = new Map<string, LocalFrame>();

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
  let minLon = Infinity,
    minLat = Infinity,
    maxLon = -Infinity,
    maxLat = -Infinity;
  for (const x of xs)
    for (const y of ys) {
      const [lon, lat] = frame.toLonLat(x, y);
      minLon = Math.min(minLon, lon);
      maxLon = Math.max(maxLon, lon);
      minLat = Math.min(minLat, lat);
      maxLat = Math.max(maxLat, lat);
    }
  return { minLon, minLat, maxLon, maxLat };
}

/**
 * Builds every requested group for one tile: its terrain first (the ground everything stands on,
 * src/features/terrain), then each feature family the request asks for (src/features), in their
 * registered order. Pure apart from reading the sources.
 */
export async function buildTile(task: TileTask, signal?: AbortSignal): Promise<TileResult> {
  const timings: Record<string, number> = {};
  const attributions: Attribution[] = [];
  const frame = frameFor(task.origin);
  const toOutput = createOutputTransform({ origin: task.origin, crs: task.output.crs, upAxis: task.output.upAxis });
  const groups: Record<string, TileGroupResult> = {};
  let elevation: TileElevation | undefined;
  let ground: GroundSampler | undefined;
  let coverage: GridCoverage | undefined;
  const crop = task.crop ? cropPolygon(task.polygon) : undefined; // cropScene: one pass over the edges

  let terrain: TileTerrainStep | undefined;
  if (task.terrain) {
    const t = performance.now();
    terrain = await terrainFamily.read(task, frame, signal);
    timings.terrain = performance.now() - t;
    attributions.push(...terrain.attributions);
    coverage = terrain.coverage;
    // Not (fully) covered by the DEM: build nothing on guessed ground; the main thread sends the tile again.
    if (terrain.uncovered) return { key: task.key, groups, attributions, timings, coverage, uncovered: terrain.uncovered };
    ground = terrain.ground;
    elevation = terrain.elevation;
  }

  const families = familiesFor(task.groups);
  const read = performance.now();
  const source = families.length > 0 ? await tileOsmSource(task.storePath, (pad) => tileLonLatBBox(frame, task.tile.bbox, pad), task.groups.join()) : NO_OSM;
  timings.osmRead = performance.now() - read;
  const taskKeys = new Set(task.taskKeys);
  const site = crop ?? tileSite(task);
  const tile: TileContext = {
    task,
    frame,
    source,
    polygon: task.polygon,
    bbox: task.tile.bbox,
    lonLatBBox: (padMetres) => tileLonLatBBox(frame, task.tile.bbox, padMetres),
    owns: (a) => ownerTileKey(task.grid, taskKeys, a[0], a[1]) === task.key,
    ground,
    toOutput,
    crop,
    site,
  };
  const extent = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const out: FamilyOutput = { groups, attributions, timings, extend: (positions) => growExtent(extent, positions) };
  for (const family of families) await family.build(tile, out);
  if (terrain && task.terrain?.meshes) {
    const t = performance.now();
    groups['topography:meshes'] = terrainFamily.mesh(task, terrain, site, out.bareGround, toOutput);
    timings.terrainMesh = performance.now() - t;
  }
  return {
    key: task.key,
    groups,
    elevation,
    attributions,
    ...(out.premiumDatasets ? { premiumDatasets: out.premiumDatasets } : {}),
    timings,
    coverage,
    extent: extent.minX <= extent.maxX ? extent : undefined,
  };
}

/** The source of a tile that builds no feature family (terrain only): nothing is read from it. */
const NO_OSM: OsmSource = {
  query: () => [],
  buildingGroups: () => [],
  buildingGroupMembers: () => new Map(),
  close: () => {},
};

/** The site within a tile (TileContext.site): absent when the tile's square lies wholly inside it. */
function tileSite(task: TileTask): CropPolygon | undefined {
  const site = cropPolygon(task.site ?? task.polygon);
  return boxRelation(site, task.tile.bbox) === 'inside' ? undefined : site;
}

/** Grows a box over the x/y of local z-up positions (before the output transform). */
function growExtent(box: BBox, p: Float64Array): void {
  for (let k = 0; k < p.length; k += 3) {
    const x = p[k],
      y = p[k + 1];
    if (x < box.minX) box.minX = x;
    if (x > box.maxX) box.maxX = x;
    if (y < box.minY) box.minY = y;
    if (y > box.maxY) box.maxY = y;
  }
}
