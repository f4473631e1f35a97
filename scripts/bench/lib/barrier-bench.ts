/**
 * Barriers (issue 9) for `npm run bench` and `scripts/bench/bench-barriers.ts`:
 *
 * - over a server started by the caller: the ~10 km² square with `geometry: ['barriers']` alone
 *   (flat) and with `projectToTopography` (bases on the terrain), each warmed up once and timed
 *   warm (median of `runs`), with the server's CPU-seconds and peak RSS;
 * - in this process: every barrier of the store built by the real builder (no tiling, flat and on
 *   a hilly ground), ms and meshes, so the cost of the geometry alone is seen without the server.
 *
 * Nothing here asserts.
 */
import { createLocalFrame } from '../../../src/frame/local-frame.ts';
import { barrierFeature, buildBarrier, BARRIER_LAYERS } from '../../../src/geometry/barriers/from-osm.ts';
import { createGroundSampler } from '../../../src/geometry/terrain/ground-sampler.ts';
import { OsmStore } from '../../../src/sources/osm/store.ts';
import { benchGroupAloneAndOnTerrain } from '../bench-server.ts';
import type { CompiledServer } from '../../../test/support/service/compiled-server.ts';

/** Times the barrier requests on `server` and prints them. */
export async function benchBarrierRequests(label: string, server: CompiledServer, c: { centre: [number, number]; side: number }, runs: number): Promise<void> {
  await benchGroupAloneAndOnTerrain(label, server, c, runs, 'barriers', 'barriers');
}

/** Builds every barrier way of a store in this process and prints the time per 1,000. */
export function benchBarrierGeometry(label: string, storePath: string, origin: [number, number]): void {
  const store = OsmStore.open(storePath);
  const features = store.query({ minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 }, BARRIER_LAYERS);
  store.close();
  const frame = createLocalFrame(origin[0], origin[1]);
  const barriers = features.map((f) => barrierFeature(f, frame)).filter((b) => b !== null);
  const columns = 201,
    heights = new Float32Array(columns * columns);
  for (let r = 0; r < columns; r++) for (let k = 0; k < columns; k++) heights[r * columns + k] = 60 + 30 * Math.sin(k * 0.21) * Math.cos(r * 0.17);
  const hills = createGroundSampler({ bbox: { minX: -10000, minY: -10000, maxX: 10000, maxY: 10000 }, columns, rows: columns, heights });
  for (const [name, ground] of [
    ['flat', undefined],
    ['hills (100 m cells)', hills],
  ] as const) {
    const t0 = performance.now();
    let meshes = 0,
      triangles = 0;
    for (let rep = 0; rep < 5; rep++) {
      for (const b of barriers) {
        const built = buildBarrier(b, ground);
        if (built && rep === 0) {
          meshes++;
          triangles += built.mesh.indices.length / 3;
        }
      }
    }
    const ms = (performance.now() - t0) / 5;
    console.log(
      `${label} barrier geometry in-process, ${name}: ${barriers.length} barrier ways → ${meshes} meshes, ${triangles} triangles, ` +
        `${ms.toFixed(1)} ms (${barriers.length ? ((1000 * ms) / barriers.length).toFixed(1) : '–'} ms per 1,000)`,
    );
  }
}
