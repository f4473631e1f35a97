/**
 * Part of `npm run bench`: what cropScene costs (issue 11: ≤ 10% on the ~10 km² cases). On a
 * server started by scripts/bench/bench.ts, the default request (buildings, surface, barriers,
 * instances) over the ~10 km² square with a notch cut to its centre (concave, like the h1 probe's
 * polygon: every family crosses the boundary somewhere), with and without `cropScene`, measured
 * side by side: one untimed warm-up of each, then BENCH_RUNS alternating pairs, medians of the
 * wall time and of the server's CPU-seconds. Nothing here asserts.
 *
 * Also runnable alone on both datasets (generated/imported into a temporary data directory;
 * BENCH_ONLY=dense|region, BENCH_RUNS): `node --import tsx scripts/bench/lib/bench-crop.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { figures, measure, medianOf, type Measured } from '../bench-server.ts';
import { startServer, type CompiledServer } from '../../../test/support/service/compiled-server.ts';

/** Issue 11: cropping may add this share at most. */
export const CROP_COST_TARGET = 0.1;

/** The square of `side` metres around lat/lon with a V-shaped notch from its east side to 0.3 of the way from the centre. */
export function notchedSquare(lat: number, lon: number, side: number): [number, number][] {
  const dLat = side / 2 / 111320,
    dLon = side / 2 / (111320 * Math.cos((lat * Math.PI) / 180));
  return [
    [lat - dLat, lon - dLon],
    [lat - dLat, lon + dLon],
    [lat, lon + 0.3 * dLon],
    [lat + dLat, lon + dLon],
    [lat + dLat, lon - dLon],
    [lat - dLat, lon - dLon],
  ];
}

export async function benchCropRequests(
  label: string,
  server: CompiledServer,
  c: { centre: [number, number]; side: number },
  runs: number,
): Promise<{ plain: Measured; cropped: Measured }> {
  const polygon = notchedSquare(c.centre[0], c.centre[1], c.side);
  const plainBody = { polygon, settings: {} },
    cropBody = { polygon, settings: { cropScene: true } };
  await measure(server, plainBody);
  await measure(server, cropBody);
  const a: Measured[] = [],
    b: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    a.push(await measure(server, plainBody));
    b.push(await measure(server, cropBody));
  }
  const plain = medianOf(a),
    cropped = medianOf(b);
  const wall = cropped.totalMs / plain.totalMs - 1,
    cpu = cropped.cpuS / plain.cpuS - 1;
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
  console.log(`${label} ~10 km² notched square, default groups, warm (median of ${runs}, alternating): without cropScene ${figures(plain)}`);
  console.log(`${label} … with cropScene: ${figures(cropped)}`);
  console.log(
    `${label} issue 11 target: cropScene costs ${pct(wall)} wall time, ${pct(cpu)} server CPU ` +
      `(target ≤ +${100 * CROP_COST_TARGET}%: ${Math.max(wall, cpu) <= CROP_COST_TARGET ? 'met' : wall <= CROP_COST_TARGET ? 'met on wall time, not CPU' : 'missed'})`,
  );
  return { plain, cropped };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { REPO_ROOT, storePaths } = await import('../../../src/config.ts');
  const { importOsm } = await import('../../../src/sources/osm/import.ts');
  const { DENSE_CITY_DEFAULTS, writeDenseCity } = await import('../../../test/support/generators/dense-city.ts');
  const runs = Number(process.env.BENCH_RUNS || 3);
  const only = process.env.BENCH_ONLY;
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-crop-'));
  try {
    for (const name of ['dense', 'region'].filter((n) => !only || n === only)) {
      const data = join(dir, name);
      mkdirSync(data, { recursive: true });
      let extract = join(REPO_ROOT, 'data/monaco/monaco-region-2016.osm.pbf');
      if (name === 'dense') writeDenseCity((extract = join(data, 'dense-city.osm.pbf')), DENSE_CITY_DEFAULTS);
      await importOsm(extract, storePaths(data).osm, {});
      const server = await startServer(data, extract);
      try {
        await benchCropRequests(name === 'dense' ? 'dense city' : 'monaco-region-2016', server, { centre: [43.739, 7.424], side: 3150 }, runs);
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
