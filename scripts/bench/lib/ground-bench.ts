/**
 * Part of `npm run bench`: the ground (issue 8) on a server started by scripts/bench/bench.ts, for the
 * same ~10 km² square as the buildings case. Two requests, each warmed up once (the first surface
 * request of a server compiles the ground code in every worker) and then timed warm (median of
 * BENCH_RUNS), with what they cost the server (CPU-seconds of all its threads, peak RSS):
 *
 * - `geometry: ['surface']` alone (meshes, no terrain: z = 0);
 * - the default request (`geometry` omitted = buildings, surface, barriers, instances: every
 *   default group the service builds).
 *
 * Beside them, the issue 8 targets: ground "warm ≤ 1.0 s beside buildings" = default warm total −
 * buildings-only warm total ≤ 1,000 ms, and "all default groups ≤ 2 s" = default warm total ≤
 * 2,000 ms. Nothing here asserts.
 */
import { figures, verdict, warmMedian, type Measured } from '../bench-server.ts';
import { square } from '../../../test/support/polygons.ts';
import type { CompiledServer } from '../../../test/support/service/compiled-server.ts';

/** Issue 8 targets, ms. */
export const GROUND_TARGETS = { besideBuildingsMs: 1000, defaultTotalMs: 2000 } as const;

export interface GroundCase {
  centre: [number, number];
  /** Side of the square, metres. */
  side: number;
}

/**
 * Times the ground requests on `server` and prints them beside the targets; `buildingsWarm` is the
 * warm buildings-only measurement of the same square on the same server.
 */
export async function benchGround(label: string, server: CompiledServer, c: GroundCase, buildingsWarm: Measured, runs: number): Promise<void> {
  const polygon = square(c.centre[0], c.centre[1], c.side);
  const surface = await warmMedian(server, { polygon, settings: { geometry: ['surface'] } }, runs);
  console.log(`${label} ~10 km² ground alone (geometry: surface), warm (median of ${runs}): ${figures(surface)}`);
  const all = await warmMedian(server, { polygon, settings: {} }, runs);
  console.log(
    `${label} ~10 km² default request (geometry omitted: buildings, surface, barriers, instances), warm (median of ${runs}): ${figures(all, { totalMs: GROUND_TARGETS.defaultTotalMs })}`,
  );
  const beside = all.totalMs - buildingsWarm.totalMs;
  console.log(
    `${label} issue 8 targets: ground beside buildings (default − buildings-only, warm totals ${all.totalMs.toFixed(0)} − ${buildingsWarm.totalMs.toFixed(0)} ms; ` +
      'includes barriers and instances where built) ' +
      `${verdict(beside, GROUND_TARGETS.besideBuildingsMs, 'ms')}, server CPU ${(all.cpuS - buildingsWarm.cpuS).toFixed(2)} CPU-s more; ` +
      `all default groups ${verdict(all.totalMs, GROUND_TARGETS.defaultTotalMs, 'ms')}`,
  );
}
