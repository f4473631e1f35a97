/**
 * The OSM store on PostGIS against the SQLite store (docs/postgis.md), on the dense city and the
 * Monaco region: import time (osm2pgsql plus our post-step vs our own import of the same extract),
 * then the ~10 km² buildings request and the default request (warm medians) from the service on
 * each store in turn, with the target "PostGIS ≤ 1.3 × SQLite". A throw-away PostgreSQL 15 +
 * PostGIS 3 cluster (test/support/postgis-cluster.ts); skipped with a line saying why where there is
 * none. Tile read times come from the workers' own `osmRead` timing only in-process; here the
 * whole request is timed, as a client sees it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, storePaths } from '../../../src/config.ts';
import { importOsm } from '../../../src/sources/osm/import.ts';
import { importPostgis } from '../../../src/sources/osm/postgis/import-postgis.ts';
import { DENSE_CITY_DEFAULTS, writeDenseCity } from '../../../test/support/generators/dense-city.ts';
import { postgisUnavailable, startPostgisCluster } from '../../../test/support/postgis-cluster.ts';
import { square } from '../../../test/support/polygons.ts';
import { startServer } from '../../../test/support/service/compiled-server.ts';
import { warmMedian, type Measured } from '../bench-server.ts';

const TARGET_RATIO = 1.3;

interface Dataset {
  label: string;
  extract: string;
  centre: [number, number];
  side: number;
}

function line(label: string, what: string, sqlite: Measured, postgis: Measured, databaseCpuS: number): void {
  const ratio = postgis.totalMs / sqlite.totalMs;
  console.log(
    `${label} ${what}: SQLite ${sqlite.totalMs.toFixed(0)} ms (${sqlite.cpuS.toFixed(2)} CPU-s), PostGIS ${postgis.totalMs.toFixed(0)} ms ` +
      `(service ${postgis.cpuS.toFixed(2)} + database ${databaseCpuS.toFixed(2)} CPU-s) = ${ratio.toFixed(2)} × (target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : 'missed'})`,
  );
}

async function benchDataset(root: string, d: Dataset, runs: number, databaseUrl: string, databaseCpu: () => number): Promise<void> {
  const dir = join(root, `postgis-${d.label.replace(/\W+/g, '-')}`);
  mkdirSync(dir, { recursive: true });
  let t0 = performance.now();
  const sqliteStats = await importOsm(d.extract, storePaths(dir).osm, {});
  const sqliteImportS = (performance.now() - t0) / 1000;
  t0 = performance.now();
  const pg = await importPostgis(d.extract, databaseUrl);
  console.log(
    `${d.label} import: our SQLite import ${sqliteImportS.toFixed(2)} s (${sqliteStats.features} features, ${sqliteStats.buildingGroups} groups); ` +
      `osm2pgsql ${pg.osm2pgsqlSeconds.toFixed(2)} s + post-step ${pg.post.seconds.toFixed(2)} s = ${((performance.now() - t0) / 1000).toFixed(2)} s (${pg.post.buildingGroups} groups)`,
  );
  const requests = {
    '~10 km² buildings': { polygon: square(d.centre[0], d.centre[1], d.side), settings: { geometry: ['buildings'] } },
    '~10 km² default request': { polygon: square(d.centre[0], d.centre[1], d.side) },
  };
  const measured: Record<string, Record<string, Measured>> = { sqlite: {}, postgis: {} };
  const databaseCpuS: Record<string, number> = {};
  for (const [store, env] of [
    ['sqlite', {}],
    ['postgis', { CITY_OSM_STORE: databaseUrl }],
  ] as const) {
    const server = await startServer(dir, d.extract, env);
    try {
      for (const [name, body] of Object.entries(requests)) {
        const cpu0 = databaseCpu();
        measured[store][name] = await warmMedian(server, body, runs);
        // warmMedian runs one request more than it times
        if (store === 'postgis') databaseCpuS[name] = (databaseCpu() - cpu0) / (runs + 1);
      }
    } finally {
      await server.stop();
    }
  }
  for (const name of Object.keys(requests)) line(d.label, name, measured.sqlite[name], measured.postgis[name], databaseCpuS[name]);
}

export async function benchPostgis(root: string, runs: number): Promise<void> {
  const unavailable = postgisUnavailable();
  if (unavailable) {
    console.log(`PostGIS store: not measured (${unavailable})`);
    return;
  }
  const cluster = await startPostgisCluster();
  try {
    const extract = join(root, 'postgis-dense-city.osm.pbf');
    writeDenseCity(extract, DENSE_CITY_DEFAULTS);
    const city: Dataset = { label: 'dense city', extract, centre: DENSE_CITY_DEFAULTS.centre, side: 3150 };
    await benchDataset(root, city, runs, await cluster.createDatabase('dense'), cluster.cpuSeconds);
    const region: Dataset = {
      label: 'monaco-region-2016',
      extract: join(REPO_ROOT, 'data/monaco/monaco-region-2016.osm.pbf'),
      centre: [43.739, 7.424],
      side: 3150,
    };
    await benchDataset(root, region, runs, await cluster.createDatabase('region'), cluster.cpuSeconds);
  } finally {
    await cluster.close();
  }
}
