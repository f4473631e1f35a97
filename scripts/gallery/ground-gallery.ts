/**
 * `npm run gallery:ground [outDir]`: a picture of the Monaco ground from above, coloured by kind
 * (test/support/ground-png.ts has the colours), for a person to look at. Builds the sample's ground
 * through the real tile tasks (900 m square over central Monaco, 0.5 m pixels) and writes
 * `<outDir>/ground-monaco.png` (default ./gallery, git-ignored) with a legend of the kinds seen.
 * GROUND_CACHE=1: the ground from the ground cache instead (its cells built first), written as
 * `ground-monaco-cached.png`, to look at the cells' seams.
 */
import { square } from '../../test/support/polygons.ts';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bakeGroundCells } from '../../src/features/surfaces/cached-ground.ts';
import { GroundCacheStore } from '../../src/sources/ground-cache/store.ts';
import { OsmStore } from '../../src/sources/osm/store.ts';
import { REPO_ROOT } from '../../src/config.ts';
import { parseContextRequest } from '../../src/contract/parse-request.ts';
import { planTasks } from '../../src/features/index.ts';
import { buildTile } from '../../src/tile/build-tile.ts';
import { importOsm } from '../../src/sources/osm/import.ts';
import type { SurfaceMesh } from '../../src/geometry/surfaces/types.ts';
import { GROUND_COLOURS, renderSurfacePng } from '../../test/support/ground-png.ts';

const outDir = process.argv[2] ?? join(REPO_ROOT, 'gallery');
const CENTRE: [number, number] = [43.7335, 7.419];
const SIDE = 900;

const store = join(mkdtempSync(join(tmpdir(), 'cc-ground-')), 'osm.sqlite');
await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), store);
const polygon = square(CENTRE[0], CENTRE[1], SIDE);
const request = parseContextRequest({ polygon, origin: CENTRE, settings: { geometry: ['surface'], crs: 'local', upAxis: 'Z', indexedMeshes: true } });
const cached = process.env.GROUND_CACHE === '1';
const groundCache = cached ? { path: join(dirname(store), 'ground-cache.sqlite'), maxBytes: 1 << 30 } : undefined;
if (groundCache) {
  const lats = polygon.map((p) => p[0]),
    lons = polygon.map((p) => p[1]);
  const box = { minLon: Math.min(...lons), minLat: Math.min(...lats), maxLon: Math.max(...lons), maxLat: Math.max(...lats) };
  const source = OsmStore.open(store);
  bakeGroundCells(
    source,
    GroundCacheStore.open(groundCache.path, groundCache.maxBytes),
    { defaultLevels: 1, defaultLevelHeight: 4, defaultRoofType: 'flat' },
    box,
  );
  source.close();
}
const plan = planTasks(request, { tileSize: 500, storePath: store, dem: null }, { canopy: null, groundCache });
const meshes: SurfaceMesh[] = [];
for (const task of plan.tasks) {
  const json = Buffer.from((await buildTile(task)).groups.surface?.json ?? new Uint8Array()).toString('utf8');
  if (!json) continue;
  for (const m of JSON.parse(`[${json}]`) as { vertices: number[]; indices: number[]; descriptor: Record<string, unknown> }[]) {
    meshes.push({ mesh: { positions: Float64Array.from(m.vertices), indices: Uint32Array.from(m.indices) }, descriptor: m.descriptor });
  }
}
const half = SIDE / 2;
const png = await renderSurfacePng(meshes, { minX: -half, minY: -half, maxX: half, maxY: half }, 2);
mkdirSync(outDir, { recursive: true });
const file = join(outDir, cached ? 'ground-monaco-cached.png' : 'ground-monaco.png');
writeFileSync(file, png);
const counts: Record<string, number> = {};
for (const m of meshes) counts[String(m.descriptor.type)] = (counts[String(m.descriptor.type)] ?? 0) + 1;
console.log(`wrote ${file} (${SIDE} m square, 2 px/m): ${meshes.length} pieces`);
for (const [kind, n] of Object.entries(counts).sort())
  console.log(`  ${kind.padEnd(20)} ${String(n).padStart(5)}  rgb(${(GROUND_COLOURS as Record<string, readonly number[]>)[kind]?.join(',') ?? '?'})`);
