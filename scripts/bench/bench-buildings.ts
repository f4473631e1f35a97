/**
 * Buildings-only cost per 1,000 buildings on the bundled extracts, per default roof shape, with
 * the straight skeleton's share shown separately (issue: roof building must not dominate).
 * Part of `npm run bench`; runs in this process on one thread.
 */
import { join } from 'node:path';
import { createLocalFrame, projectFlat } from '../../src/frame/local-frame.ts';
import { validFootprints } from '../../src/geometry/planar/footprint-repair.ts';
import { benchRoofs } from '../../test/support/bench-roofs.ts';
import type { RoofShape } from '../../src/geometry/buildings/roofs/types.ts';
import type { Footprint } from '../../src/geometry/types.ts';
import { REPO_ROOT } from '../../src/config.ts';
import { importOsm } from '../../src/sources/osm/import.ts';
import { OsmStore } from '../../src/sources/osm/store.ts';

const EVERYWHERE = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };

async function footprintsOf(extract: string, dir: string, origin: [number, number]): Promise<Footprint[]> {
  const db = join(dir, `${extract.replace(/\W/g, '_')}.sqlite`);
  await importOsm(join(REPO_ROOT, extract), db);
  const store = OsmStore.open(db);
  const frame = createLocalFrame(origin[0], origin[1]);
  const out: Footprint[] = [];
  for (const f of store.query(EVERYWHERE, ['building', 'building_part'])) {
    for (const rings of f.polygons ?? []) {
      const local = rings.map((r) => projectFlat(frame, r));
      out.push(...validFootprints({ outer: local[0], holes: local.slice(1) }));
    }
  }
  store.close();
  return out;
}

export async function benchBuildings(dir: string): Promise<void> {
  const sets: [string, Footprint[], readonly RoofShape[]][] = [
    [
      'monaco (2022)',
      await footprintsOf('data/monaco/monaco.osm.pbf', dir, [43.735, 7.419]),
      ['flat', 'hipped', 'gabled', 'onion', 'dome', 'round', 'skillion', 'mansard', 'quadrupleSaltbox', 'saltbox', 'gambrel', 'pyramidal'],
    ],
    ['monaco-region-2016', await footprintsOf('data/monaco/monaco-region-2016.osm.pbf', dir, [43.74, 7.42]), ['flat', 'gabled', 'hipped']],
  ];
  for (const [name, footprints, shapes] of sets) {
    const rows = await benchRoofs(footprints, { shapes });
    console.log(
      `buildings only, ${name}, ${footprints.length} footprints, one thread (ms per 1,000 buildings; of which straight skeleton: CGAL / convex / wavefront):`,
    );
    for (const r of rows) {
      console.log(
        `  ${r.shape.padEnd(16)} ${String(r.msPer1000).padStart(6)} ms  skeleton ${r.skeletonMsPer1000} / ${r.convexSkeletonMsPer1000} / ${r.wavefrontSkeletonMsPer1000} ms  (${r.skeletonCalls} CGAL calls, ${r.skeletonFailures} failed, ${r.wavefrontRejected} wavefront results rejected, ${r.fallbacks} fell back)`,
      );
    }
  }
}
