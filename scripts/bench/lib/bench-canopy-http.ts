/**
 * The canopy tree sources end to end (`node --import tsx scripts/bench/lib/bench-canopy-http.ts`; not
 * part of `npm run bench`, which has no canopy data): a generated closed-forest CHM of 3 km × 3 km
 * at 1 m over Monaco (UTM 32N, 36 GeoTIFFs of 500 m on one pixel grid, as a tiled product comes)
 * configured in a service on the bundled extract with two workers; the 3 km square's `instances`
 * with treeSource standard, hybrid and canopy, each warmed up once then timed (median of
 * BENCH_RUNS, default 3): wall time, the process's CPU-seconds (all threads), trees returned.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import proj4 from 'proj4';
import { resolveCrs } from '../../../src/sources/dem/crs.ts';
import { crop, writeChmTiff } from '../../../test/support/generators/canopy-tiff.ts';
import { postContext, startTestService } from '../../../test/support/service/http.ts';
import { square } from '../../../test/support/polygons.ts';
import { forestTrees, renderChm } from '../../../test/support/generators/synthetic-chm.ts';
import { timeRuns } from './timing.ts';

const SIDE = 3000,
  FILE = 500,
  CENTRE: [number, number] = [43.735, 7.42];

async function main(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'canopy-bench-'));
  try {
    const [ce, cn] = proj4('EPSG:4326', resolveCrs(32632)).forward([CENTRE[1], CENTRE[0]]).map(Math.round);
    const west = ce - SIDE / 2,
      north = cn + SIDE / 2;
    const chm = renderChm(SIDE, SIDE, 1, forestTrees(SIDE, SIDE, 6, 17), { noise: 0.05, seed: 5 });
    mkdirSync(join(dir, 'chm'));
    for (let r = 0; r < SIDE; r += FILE)
      for (let c = 0; c < SIDE; c += FILE) {
        await writeChmTiff(join(dir, 'chm', `${r}-${c}.tif`), crop(chm.data, SIDE, c, r, c + FILE, r + FILE), FILE, FILE, {
          epsg: 32632,
          west: west + c,
          north: north - r,
          pixel: 1,
        });
      }
    const service = await startTestService({ canopy: [{ path: join(dir, 'chm') }], workers: 2 });
    try {
      const polygon = square(CENTRE[0], CENTRE[1], SIDE - 100);
      console.log(`canopy tree sources over HTTP: ${((SIDE - 100) / 1000) ** 2} km² of closed forest CHM at 1 m, 2 workers:`);
      for (const treeSource of ['standard', 'hybrid', 'canopy']) {
        const post = () => postContext(service.url, service.demo!.key, { polygon, settings: { geometry: ['instances'], treeSource } });
        await post();
        const { wall, cpu, out: last } = await timeRuns(runs, post);
        const nodes: { type: string; descriptor: { source: string } }[] = last.json.geometry[0].nodes;
        const by = (s: string) => nodes.filter((n) => n.type === 'tree' && n.descriptor.source === s).length;
        console.log(
          `  ${treeSource.padEnd(8)} ${wall.toFixed(2)} s, ${cpu.toFixed(2)} CPU-s; trees: ${by('canopy')} detected, ${by('osm')} surveyed, ${by('procedural')} procedural; ` +
            `${(last.text.length / 1e6).toFixed(1)} MB; warnings ${last.json.warnings.map((w: { code: string }) => w.code).join(', ') || 'none'}`,
        );
      }
    } finally {
      await service.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
