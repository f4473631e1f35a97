/**
 * Premium tests' plumbing: the bundled samples imported once into a temporary store, and a request
 * built tile by tile in this thread over a made-up OSM source (the OSM sample does not cover Zürich
 * or Berlin), collecting every mesh with the tile that built it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import { planTasks } from '../../../src/features/index.ts';
import { createLocalFrame, type LocalFrame } from '../../../src/frame/local-frame.ts';
import type { ElevationGrid } from '../../../src/geometry/terrain/elevation-grid.ts';
import type { OsmFeature } from '../../../src/osm-model/feature.ts';
import { importPremiumSources, PREMIUM_STORE_FILE, premiumSourcesFromEnv } from '../../../src/sources/premium/config.ts';
import { buildTile } from '../../../src/tile/build-tile.ts';
import { registerOsmSource } from '../../../src/tile/osm-sources.ts';
import { memoryBuildingSource } from '../fakes/osm-building-source.ts';

let samples: Promise<string> | null = null;

/** The premium store holding both bundled samples (imported once per test process). */
export function sampleStore(): Promise<string> {
  samples ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cc-premium-'));
    await importPremiumSources(premiumSourcesFromEnv(undefined), dir);
    return join(dir, PREMIUM_STORE_FILE);
  })();
  return samples;
}

export interface BuiltMesh {
  vertices: number[];
  indices: number[];
  descriptor: Record<string, unknown>;
  tile: number;
}

export interface TileRun {
  meshes: BuiltMesh[];
  frame: LocalFrame;
  premiumDatasets: string[];
  attributions: string[];
  tiles: number;
}

export interface TileRunOptions {
  osm?: readonly OsmFeature[];
  tileSize?: number;
  origin?: [number, number];
  /** The datasets the request may use (absent = all in the store). */
  datasets?: readonly string[];
  settings?: Record<string, unknown>;
  /** Ground for every tile, in the request frame (instead of a DEM). */
  ground?: ElevationGrid;
}

/** A box polygon [[lat, lon], …] from lon/lat bounds. */
export function boxPolygon(w: number, s: number, e: number, n: number): [number, number][] {
  return [
    [s, w],
    [s, e],
    [n, e],
    [n, w],
    [s, w],
  ];
}

/** Builds every tile of a buildings request over `polygon` ([lat, lon] ring) in this thread. */
export async function runTiles(storePath: string, polygon: [number, number][], o: TileRunOptions = {}): Promise<TileRun> {
  const req = parseContextRequest({
    polygon,
    ...(o.origin ? { origin: o.origin } : {}),
    settings: { geometry: ['buildings'], crs: 'local', upAxis: 'Z', indexedMeshes: true, ...o.settings },
  });
  const osmPath = `premium-osm#${Math.random()}`;
  registerOsmSource(osmPath, memoryBuildingSource(o.osm ?? []));
  const plan = planTasks(req, { tileSize: o.tileSize ?? 100, storePath: osmPath, dem: null }, { canopy: null, premium: { storePath, datasets: o.datasets } });
  const meshes: BuiltMesh[] = [];
  const used = new Set<string>();
  const credits = new Set<string>();
  for (const task of plan.tasks) {
    if (o.ground) task.terrain = { segments: 8, maps: false, meshes: false, drape: true, dem: null, ground: o.ground };
    const result = await buildTile(task);
    for (const d of result.premiumDatasets ?? []) used.add(d);
    for (const a of result.attributions) credits.add(a.id);
    const json = Buffer.from(result.groups.buildings.json).toString('utf8');
    if (!json) continue;
    for (const m of JSON.parse(`[${json}]`) as Omit<BuiltMesh, 'tile'>[]) meshes.push({ ...m, tile: task.key });
  }
  return {
    meshes,
    frame: createLocalFrame(req.origin[0], req.origin[1]),
    premiumDatasets: [...used].sort(),
    attributions: [...credits].sort(),
    tiles: plan.tasks.length,
  };
}

/** The building a mesh belongs to: its parent's id, else its own. */
export function buildingOf(m: BuiltMesh): string {
  return String(m.descriptor.parentId ?? m.descriptor.id);
}
