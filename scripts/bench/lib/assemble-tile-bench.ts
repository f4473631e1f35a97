/**
 * Part of `npm run bench`: the time of each step of the ground assembly on the busy 500 m tiles of
 * test/support/scenes/busy-tile.ts (~2,000 mapped areas and 800 buildings each), in this process on one
 * thread. What the steps produce is checked, untimed, by test/unit/geometry/surfaces/assemble/busy-tiles.test.ts.
 *
 * Steps: resolveOverlaps (the non-overlapping pieces), surfaceMeshes without terrain, draped on a
 * 31.25 m and on a 10 m terrain grid, flat on the terrain (disableSurfaceProjection: each piece at
 * its lowest ground), and the draped outlines. Each is run once on a smaller tile first, so the
 * times are of optimised code; BENCH_RUNS (default 3) runs, median printed.
 */
import { pathToFileURL } from 'node:url';
import { resolveOverlaps } from '../../../src/geometry/surfaces/assemble/resolve-overlaps.ts';
import { surfaceMeshes } from '../../../src/geometry/surfaces/assemble/surface-meshes.ts';
import { surfaceOutlines } from '../../../src/geometry/surfaces/assemble/surface-outlines.ts';
import type { SurfaceMesh } from '../../../src/geometry/surfaces/types.ts';
import { median } from './timing.ts';
import { BUSY_TILES, busyTerrain, type BusyTileMaker } from '../../../test/support/scenes/busy-tile.ts';

/** Median wall time (ms) of `runs` calls of `f`, and the last result. */
function timed<T>(runs: number, f: () => T): [number, T] {
  const ms: number[] = [];
  let out!: T;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    out = f();
    ms.push(performance.now() - t);
  }
  return [median(ms), out];
}

const triangles = (ms: readonly SurfaceMesh[]) => ms.reduce((a, m) => a + m.mesh.indices.length / 3, 0);

function benchTile(name: string, make: BusyTileMaker, runs: number): void {
  const { areas, buildings, clip } = make(7);
  const small = make(3);
  surfaceMeshes(resolveOverlaps(small.areas.slice(0, 400), { cutOut: small.buildings.slice(0, 100), clip }), { ground: busyTerrain(10), drape: true });

  const [resolveMs, pieces] = timed(runs, () => resolveOverlaps(areas, { cutOut: buildings, clip }));
  const coarse = busyTerrain(500 / 16),
    fine = busyTerrain(10);
  const [flatMs, flat] = timed(runs, () => surfaceMeshes(pieces, { drape: true }));
  const [drapedMs, draped] = timed(runs, () => surfaceMeshes(pieces, { ground: coarse, drape: true }));
  const [fineMs, drapedFine] = timed(runs, () => surfaceMeshes(pieces, { ground: fine, drape: true }));
  const [lowestMs] = timed(runs, () => surfaceMeshes(pieces, { ground: coarse, drape: false }));
  const [outlinesMs, outlines] = timed(runs, () => surfaceOutlines(pieces, { ground: coarse, drape: true }));

  console.log(
    `ground assembly, busy 500 m tile, ${name}: ${areas.length} areas, ${buildings.length} buildings → ${pieces.length} pieces ` +
      `(${pieces.reduce((a, p) => a + p.footprints.length, 0)} polygons), one thread, median of ${runs}:`,
  );
  const rows: [string, number, string][] = [
    ['resolveOverlaps', resolveMs, ''],
    ['surfaceMeshes without terrain', flatMs, `${triangles(flat)} triangles`],
    ['surfaceMeshes draped, grid 31.25 m', drapedMs, `${triangles(draped)} triangles`],
    ['surfaceMeshes draped, grid 10 m', fineMs, `${triangles(drapedFine)} triangles`],
    ['surfaceMeshes flat on terrain (lowest ground)', lowestMs, ''],
    ['surfaceOutlines draped', outlinesMs, `${outlines.length} rings`],
  ];
  for (const [label, ms, extra] of rows) console.log(`  ${label.padEnd(46)} ${ms.toFixed(0).padStart(5)} ms${extra ? `, ${extra}` : ''}`);
}

/** Prints the per-step times on every busy tile. */
export function benchAssembleTiles(runs = Number(process.env.BENCH_RUNS || 3)): void {
  for (const [name, make] of BUSY_TILES) benchTile(name, make, runs);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) benchAssembleTiles();
