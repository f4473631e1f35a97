/**
 * Premium buildings over the dense city: the Zürich sample's buildings copied onto 22 m cells over
 * the same ~10 km² square (test/support/generators/premium-city.ts, ~20,000 buildings), imported
 * into the running server's premium store (import throughput: MB/s and buildings/s), then the
 * ~10 km² buildings request with them (every OSM building under them replaced) against the same
 * request with `buildingSources: global` measured before. Targets: ≤ 1.5× the OSM request, peak
 * RSS ≤ 500 MB.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storePaths } from '../../../src/config.ts';
import { importPremiumDataset } from '../../../src/sources/premium/import.ts';
import { writePremiumCity } from '../../../test/support/generators/premium-city.ts';
import type { CompiledServer } from '../../../test/support/service/compiled-server.ts';
import { square } from '../../../test/support/polygons.ts';
import { figures, measure, medianOf, type Measured } from '../bench-server.ts';

const OVER_OSM = 1.5;
const PEAK_RSS_MB = 500;

export async function benchPremiumRequests(
  label: string,
  server: CompiledServer,
  dataDir: string,
  area: { centre: [number, number]; side: number },
  runs: number,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cc-bench-premium-'));
  try {
    const file = join(dir, 'premium-city.city.json');
    let t = performance.now();
    const city = writePremiumCity(file, { centre: area.centre, sideMetres: area.side, cellMetres: 22 });
    const mb = statSync(file).size / 1048576;
    console.log(
      `${label} premium city: ${city.buildings} buildings on 22 m cells, ${mb.toFixed(0)} MB CityJSON, written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    t = performance.now();
    const cpu0 = process.cpuUsage();
    const report = await importPremiumDataset(storePaths(dataDir).premium, file, { id: 'bench-premium-city', country: 'MC' });
    const cpu = process.cpuUsage(cpu0);
    const wall = (performance.now() - t) / 1000,
      cpuS = (cpu.user + cpu.system) / 1e6;
    console.log(
      `${label} premium city import: ${report.buildings} buildings, ${report.parts} parts, ${report.skipped.count} left out; ${wall.toFixed(1)} s, ${cpuS.toFixed(1)} CPU-s ` +
        `(${(mb / wall).toFixed(1)} MB/s, ${(report.buildings / wall).toFixed(0)} buildings/s; per CPU-s ${(mb / cpuS).toFixed(1)} MB, ${(report.buildings / cpuS).toFixed(0)} buildings)`,
    );
    const polygon = square(area.centre[0], area.centre[1], area.side);
    const run = async (buildingSources: 'all' | 'global') => {
      const body = { polygon, settings: { geometry: ['buildings'], buildingSources } };
      await measure(server, body); // the first with premium opens the store and compiles the mesh code
      const out: Measured[] = [];
      for (let i = 0; i < runs; i++) out.push(await measure(server, body));
      return medianOf(out);
    };
    const osm = await run('global');
    console.log(`${label} ~10 km² buildings, OSM only (buildingSources global, median of ${runs}): ${figures(osm)}`);
    const premium = await run('all');
    console.log(
      `${label} ~10 km² buildings with the premium city (median of ${runs}): ${figures(premium, { totalMs: OVER_OSM * osm.totalMs, peakRssMb: PEAK_RSS_MB })} ` +
        `[total target = ${OVER_OSM} × OSM only; CPU ${(premium.cpuS / osm.cpuS).toFixed(2)} × OSM only]`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
