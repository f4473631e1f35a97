import { parseContextRequest } from '../contract/parse-request.ts';
import type { GroupSink } from './group-sink.ts';
import { middleGroupRep } from '../tile/osm-sources.ts';
import { runRequest, type PipelineDeps } from './run-request.ts';

/** A sink that keeps nothing: the warm-up's answers are thrown away. */
const DISCARD: GroupSink = { declare() {}, chunk() {}, done() {} };

export interface RequestWarmUpOptions {
  /** Stop starting new requests once this much time has gone, milliseconds. */
  budgetMs: number;
  /** Side of the square requested, metres (about a large real request). */
  sideMetres: number;
  /** Ends the warm-up at once, the request in progress included (the first real request, closing, the deadline). */
  stop?: AbortSignal;
}

/**
 * Runs whole default requests through the pool at start-up, answers discarded, so the first real
 * request finds optimised code. Warming inside the workers alone (tile/warm-up.ts) left the first
 * two real ~10 km² requests at ~1.8× and ~1.4× the time of later ones: V8 kept optimising and
 * deoptimising (hundreds of "wrong map" bailouts) on what only the real path does — tasks planned
 * in the main thread and cloned through piscina's port, results moved back, groups merged and
 * streamed. Requests go round squares around the store's middle and its four quarters, so the code
 * sees varied data, until the CPU a cycle of them costs has settled ({@link warmUpSettled}) or the
 * budget is spent, or `stop` fires. Returns the number of requests run to the end.
 */
export async function warmUpRequests(deps: PipelineDeps, options: RequestWarmUpOptions): Promise<number> {
  const started = performance.now();
  const stop = options.stop ?? new AbortController().signal;
  if (options.budgetMs <= 0 || stop.aborted) return 0;
  const middle = await middleGroupRep(deps.storePath);
  if (!middle) return 0;
  const [lon, lat] = middle;
  const dLat = options.sideMetres / 2 / 111_320,
    dLon = options.sideMetres / 2 / (111_320 * Math.cos((lat * Math.PI) / 180));
  const centres: [number, number][] = [
    [lat, lon],
    [lat - dLat, lon - dLon],
    [lat + dLat, lon + dLon],
    [lat - dLat, lon + dLon],
    [lat + dLat, lon - dLon],
  ];
  // without the ground cache: building its cells would cost the budget ~1.6× a request's ground
  // for data a later request may never ask for (city-context bake-ground fills it on purpose), and
  // the code to warm is the ground built per tile, which every cell build runs too
  const warmDeps: PipelineDeps = { ...deps, groundCache: null };
  let runs = 0;
  const cycles: number[] = [];
  let cycleStart = process.cpuUsage();
  while (performance.now() - started < options.budgetMs && !stop.aborted) {
    const [cLat, cLon] = centres[runs % centres.length];
    const polygon = [
      [cLat - dLat, cLon - dLon],
      [cLat - dLat, cLon + dLon],
      [cLat + dLat, cLon + dLon],
      [cLat + dLat, cLon - dLon],
      [cLat - dLat, cLon - dLon],
    ];
    // every other one with cropScene, so the cutting code is warm too (src/geometry/crop); the
    // last of each cycle asks for buildings alone, the commonest request, whose tiles and answer
    // take paths of their own (the first one after a default-only warm-up took ~1.3x a warm one)
    const settings = runs % CYCLE === CYCLE - 1 ? { geometry: ['buildings'] } : { cropScene: runs % 2 === 1 };
    try {
      await runRequest(parseContextRequest({ polygon, settings }), warmDeps, DISCARD, stop);
    } catch (err) {
      if (stop.aborted) break;
      throw err;
    }
    runs++;
    if (runs % CYCLE === 0) {
      const used = process.cpuUsage(cycleStart);
      cycles.push(used.user + used.system);
      cycleStart = process.cpuUsage();
      if (warmUpSettled(cycles)) break;
    }
  }
  return runs;
}

/** Requests per cycle: one on each of the five squares (default groups with and without cropScene in turn, the last buildings alone). */
const CYCLE = 5;

/**
 * The warm-up has done its work once a whole cycle of requests costs no more than 10 % less CPU
 * (all threads: V8 compiles optimised code on background threads) than the cycle before: on the
 * dense city the first real request after a fixed 6 s still paid ~0.8 CPU-s of compilation (2.4×
 * a warm one), while the small Monaco sample settles within a few seconds.
 */
export function warmUpSettled(cycleCpu: readonly number[]): boolean {
  const n = cycleCpu.length;
  return n >= 2 && cycleCpu[n - 1] >= 0.9 * cycleCpu[n - 2];
}
