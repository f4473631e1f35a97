/**
 * The downtown case of `npm run bench` (BENCH_ONLY=downtown): the synthetic downtown of
 * test/support/generators/downtown.ts — the dense city's grid and buildings with separately mapped
 * sidewalks, crossings at every junction, traffic islands, alleys and driveways, steps, plazas,
 * parks, yards and barriers at the densities of a real ~10 km² Midtown-like extract — generated,
 * imported into its own store under `root`, and served by the compiled service. Over the ~10 km²
 * square, warm (median of `runs`), each beside the targets of a real downtown: buildings alone;
 * the ground alone (`geometry: ['surface']`, ≤ 1.0 s; its first request, which fills the ground
 * cache, apart); the default request (geometry omitted,
 * ≤ 1.5 s and ≤ 3 server CPU-s); barriers and instances alone and on the terrain; the default
 * groups as JSON and as an export in every format (GLB ≤ 1.3 × the JSON request). Nothing asserts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { storePaths } from '../../../src/config.ts';
import { importOsm } from '../../../src/sources/osm/import.ts';
import { DOWNTOWN_DEFAULTS, writeDowntown } from '../../../test/support/generators/downtown.ts';
import { square } from '../../../test/support/polygons.ts';
import { startServer } from '../../../test/support/service/compiled-server.ts';
import { figures, measure, size, verdict, warmMedian } from '../bench-server.ts';
import { benchBarrierRequests } from './barrier-bench.ts';
import { benchExportRequests, fileSize } from './export-bench.ts';
import { benchInstanceRequests } from './instances-bench.ts';

/** The targets on a real downtown: wall ms, server CPU-s, GLB export over the JSON request. */
export const DOWNTOWN_SPEED_TARGETS = { groundMs: 1000, defaultMs: 1500, defaultCpuS: 3, glbOverJson: 1.3 } as const;

export async function benchDowntown(root: string, runs: number, c: { centre: [number, number]; side: number }): Promise<void> {
  const label = 'downtown';
  const dir = join(root, 'downtown');
  mkdirSync(dir, { recursive: true });
  const extract = join(dir, 'downtown.osm.pbf');
  let t0 = performance.now();
  const city = writeDowntown(extract, DOWNTOWN_DEFAULTS);
  const { bytes, ...counts } = city;
  console.log(
    `${label} (seed ${DOWNTOWN_DEFAULTS.seed}, ${DOWNTOWN_DEFAULTS.sideMetres} m square): generated in ${((performance.now() - t0) / 1000).toFixed(2)} s, ${size(bytes)}, ${JSON.stringify(counts)}`,
  );
  t0 = performance.now();
  const stats = await importOsm(extract, storePaths(dir).osm, {});
  console.log(`import ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${stats.features} features`);
  // the ground cache is opt-in (docs/ground.md "The ground cache"): this case measures it on
  const server = await startServer(dir, extract, { CITY_GROUND_CACHE: 'on' });
  console.log(`${label}: the service runs with CITY_GROUND_CACHE=on`);
  try {
    const polygon = square(c.centre[0], c.centre[1], c.side);
    const buildings = await warmMedian(server, { polygon, settings: { geometry: ['buildings'] } }, runs);
    console.log(`${label} ~10 km² buildings, warm (median of ${runs}): ${figures(buildings)}`);
    // the first ground request builds the ground cache's cells the start-up warm-up did not (docs/ground.md "The ground cache")
    const firstGround = await measure(server, { polygon, settings: { geometry: ['surface'] } });
    console.log(`${label} ~10 km² ground alone, first request (builds the ground cache's missing cells): ${figures(firstGround)}`);
    const ground = await warmMedian(server, { polygon, settings: { geometry: ['surface'] } }, runs);
    console.log(
      `${label} ~10 km² ground alone (geometry: surface), warm (median of ${runs}): ${figures(ground, { totalMs: DOWNTOWN_SPEED_TARGETS.groundMs })}`,
    );
    const all = await warmMedian(server, { polygon, settings: {} }, runs);
    console.log(
      `${label} ~10 km² default request (geometry omitted), warm (median of ${runs}): ${figures(all, { totalMs: DOWNTOWN_SPEED_TARGETS.defaultMs, cpuS: DOWNTOWN_SPEED_TARGETS.defaultCpuS })}`,
    );
    await benchBarrierRequests(label, server, c, runs);
    await benchInstanceRequests(label, server, c, runs);
    const glbBody = { polygon, export: { format: 'glb' } };
    const glb = await warmMedian(server, glbBody, runs);
    console.log(
      `${label} ~10 km² GLB export, warm (median of ${runs}): ${figures(glb)}, file ${size(await fileSize(server, glbBody))} [× the default JSON request: ${verdict(glb.totalMs / all.totalMs, DOWNTOWN_SPEED_TARGETS.glbOverJson, '', 2)}]`,
    );
    if (process.env.BENCH_DOWNTOWN_ALL_EXPORTS === '1') await benchExportRequests(label, server, c, runs);
    console.log(`${label} server peak RSS over its lifetime: ${server.peakRssMb().toFixed(0)} MB`);
  } finally {
    await server.stop();
  }
}
