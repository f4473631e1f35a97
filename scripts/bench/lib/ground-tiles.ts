/**
 * `node --import tsx scripts/bench/lib/ground-tiles.ts dense|downtown|region [rounds]`: the ground
 * (`geometry: ['surface']`) of the bench's ~10 km² square built tile by tile in this process, one
 * thread, as the workers build it (the tasks cloned as piscina clones them, the request's site on
 * every task). One warm-up round, then `rounds` timed: the tile stages' CPU time summed per round (median),
 * the thread's CPU and a digest of every tile's output (equal digests = the same ground). The
 * stores are imported once into BENCH_STORE_DIR (default a temporary directory). With
 * `node --cpu-prof` it gives the profile of the ground alone. A 4th argument lists other groups
 * (`surface,buildings`); BENCH_AREAS=1 prints the area of each kind of ground, BENCH_TILES=n
 * builds the first n tiles only, BENCH_TILE=i tile i only, BENCH_VERBOSE=1 each tile's wall time.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../../src/config.ts';
import { parseContextRequest } from '../../../src/contract/parse-request.ts';
import { planTasks } from '../../../src/features/index.ts';
import { requestSite } from '../../../src/pipeline/request-site.ts';
import { importOsm } from '../../../src/sources/osm/import.ts';
import { buildTile } from '../../../src/tile/build-tile.ts';
import { osmSourceFor } from '../../../src/tile/osm-sources.ts';
import { square } from '../../../test/support/polygons.ts';
import { DENSE_CITY_DEFAULTS, writeDenseCity } from '../../../test/support/generators/dense-city.ts';
import { writeDowntown } from '../../../test/support/generators/downtown.ts';
import { median } from './timing.ts';

const CENTRE: [number, number] = [43.739, 7.424];
const SIDE = 3150;

type Dataset = 'dense' | 'downtown' | 'region';

async function store(which: Dataset): Promise<string> {
  const dir = process.env.BENCH_STORE_DIR ?? mkdtempSync(join(tmpdir(), 'cc-ground-tiles-'));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${which}.sqlite`);
  if (existsSync(path)) return path;
  let extract = join(REPO_ROOT, 'data/monaco/monaco-region-2016.osm.pbf');
  if (which === 'dense') {
    extract = join(dir, 'dense-city.osm.pbf');
    writeDenseCity(extract, DENSE_CITY_DEFAULTS);
  } else if (which === 'downtown') {
    extract = join(dir, 'downtown.osm.pbf');
    writeDowntown(extract);
  }
  await importOsm(extract, path, {});
  return path;
}

/**
 * The tiles time their stages with `performance.now()`; on a shared box the wall clock counts the
 * other processes' time too, so here the clock is this process's CPU time (the stages' CPU ms).
 */
function cpuClock(): void {
  performance.now = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
}

export async function benchGroundTiles(which: Dataset, rounds: number, geometry: string[] = ['surface']): Promise<void> {
  const storePath = await store(which);
  const wallNow = performance.now.bind(performance);
  cpuClock();
  const polygon = square(CENTRE[0], CENTRE[1], SIDE);
  const request = parseContextRequest({ polygon, settings: { geometry } });
  // BENCH_GROUND_CACHE=<file>: the tiles take their ground from the ground cache (the warm-up round fills it)
  const groundCache = process.env.BENCH_GROUND_CACHE ? { path: process.env.BENCH_GROUND_CACHE, maxBytes: 4 * 2 ** 30 } : undefined;
  const plan = planTasks(request, { tileSize: Number(process.env.BENCH_TILE_SIZE ?? 500), storePath, dem: null }, { canopy: null, groundCache });
  const site = requestSite(plan.polygon, plan.frame, osmSourceFor(storePath));
  if (site) for (const t of plan.tasks) t.site = site;
  if (process.env.BENCH_TILES) plan.tasks.splice(Number(process.env.BENCH_TILES));
  if (process.env.BENCH_TILE) plan.tasks.splice(0, plan.tasks.length, plan.tasks[Number(process.env.BENCH_TILE)]);
  const perRound: Record<string, number[]> = {};
  const cpu: number[] = [];
  const wall: number[] = [];
  let digest = '';
  const areas: Record<string, number> = {};
  for (let r = 0; r <= rounds; r++) {
    const sums: Record<string, number> = {};
    const hash = createHash('sha256');
    const c0 = process.cpuUsage();
    const t0 = wallNow();
    for (const task of plan.tasks) {
      const tt = wallNow();
      const result = await buildTile(structuredClone(task));
      if (process.env.BENCH_VERBOSE) console.log(`  tile ${task.key}: ${(wallNow() - tt).toFixed(0)} ms`);
      for (const [k, ms] of Object.entries(result.timings)) sums[k] = (sums[k] ?? 0) + ms;
      for (const key of Object.keys(result.groups).sort()) hash.update(key).update(result.groups[key].json);
      if (process.env.BENCH_AREAS && r === rounds) addAreas(result.groups.surface?.json, areas);
    }
    const c = process.cpuUsage(c0);
    if (r === 0) {
      console.log(`  warm-up round: wall ${(wallNow() - t0).toFixed(0)} ms, CPU ${((c.user + c.system) / 1000).toFixed(0)} ms`);
      continue;
    }
    wall.push(wallNow() - t0);
    cpu.push((c.user + c.system) / 1000);
    for (const [k, ms] of Object.entries(sums)) (perRound[k] ??= []).push(ms);
    digest = hash.digest('hex').slice(0, 16);
  }
  console.log(
    `${which}: ${plan.tasks.length} tiles, ${geometry.join('+')}, median of ${rounds}: wall ${median(wall).toFixed(0)} ms, CPU ${median(cpu).toFixed(0)} ms, digest ${digest}`,
  );
  if (process.env.BENCH_AREAS) for (const [k, a] of Object.entries(areas).sort()) console.log(`  area ${k}: ${a.toFixed(3)} m²`);
  for (const [k, v] of Object.entries(perRound).sort((a, b) => median(b[1]) - median(a[1])))
    console.log(`  ${k.padEnd(22)} ${median(v).toFixed(0).padStart(6)} ms`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const which: Dataset = process.argv[2] === 'region' || process.argv[2] === 'downtown' ? process.argv[2] : 'dense';
  await benchGroundTiles(which, Number(process.argv[3] ?? 3), process.argv[4] ? process.argv[4].split(',') : undefined);
}

/** Adds the plan area of each kind of ground in a tile's surface group (BENCH_AREAS: the same ground whatever the order of its pieces). */
function addAreas(json: Uint8Array | undefined, areas: Record<string, number>): void {
  if (!json?.length) return;
  // meshes as the default request returns them: a triangle soup, y up (the plan is x, z)
  for (const m of JSON.parse(`[${Buffer.from(json).toString('utf8')}]`) as { vertices: number[]; descriptor: Record<string, unknown> }[]) {
    const v = m.vertices;
    let s = 0;
    for (let t = 0; t + 8 < v.length; t += 9) s += Math.abs((v[t + 3] - v[t]) * (v[t + 8] - v[t + 2]) - (v[t + 6] - v[t]) * (v[t + 5] - v[t + 2])) / 2;
    const key = `${m.descriptor.type}${m.descriptor.inferred ? ' (inferred)' : ''}`;
    areas[key] = (areas[key] ?? 0) + s;
  }
}
