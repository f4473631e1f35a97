/**
 * `node --import tsx scripts/bench/bench-barriers.ts`: the barrier figures of issue 9 on their own
 * (scripts/bench/lib/barrier-bench.ts) for monaco-region-2016 and the dense synthetic city, each on its
 * own server process in a temporary data directory. BENCH_RUNS (default 3), BENCH_ONLY=dense|region.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, storePaths } from '../../src/config.ts';
import { importOsm } from '../../src/sources/osm/import.ts';
import { startServer } from '../../test/support/service/compiled-server.ts';
import { DENSE_CITY_DEFAULTS, writeDenseCity } from '../../test/support/generators/dense-city.ts';
import { benchBarrierGeometry, benchBarrierRequests } from './lib/barrier-bench.ts';

const CENTRE: [number, number] = [43.739, 7.424];
const TEN_KM2 = { centre: CENTRE, side: 3150 };
const RUNS = Number(process.env.BENCH_RUNS || 3);
const ONLY = process.env.BENCH_ONLY;

const root = mkdtempSync(join(tmpdir(), 'cc-bench-barriers-'));
try {
  for (const name of ['region', 'dense'] as const) {
    if (ONLY && ONLY !== name) continue;
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    let extract = join(REPO_ROOT, 'data/monaco/monaco-region-2016.osm.pbf');
    if (name === 'dense') {
      extract = join(dir, 'dense-city.osm.pbf');
      writeDenseCity(extract, DENSE_CITY_DEFAULTS);
    }
    await importOsm(extract, storePaths(dir).osm, {});
    const label = name === 'region' ? 'monaco-region-2016' : 'dense city';
    benchBarrierGeometry(label, storePaths(dir).osm, CENTRE);
    const server = await startServer(dir, extract);
    try {
      await benchBarrierRequests(label, server, TEN_KM2, RUNS);
    } finally {
      await server.stop();
    }
  }
  if (!ONLY || ONLY === 'region') {
    const dir = join(root, 'monaco');
    mkdirSync(dir, { recursive: true });
    await importOsm(join(REPO_ROOT, 'data/monaco/monaco.osm.pbf'), storePaths(dir).osm, {});
    benchBarrierGeometry('monaco (2022)', storePaths(dir).osm, [43.735, 7.419]);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
