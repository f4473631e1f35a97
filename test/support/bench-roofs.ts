import type { Footprint } from '../../src/geometry/types.ts';
import { ROOF_SHAPES, type RoofShape } from '../../src/geometry/buildings/roofs/types.ts';
import { buildBuildingPart } from '../../src/geometry/buildings/build-part.ts';
import { loadSkeleton, resetSkeletonStats, skeletonStats } from '../../src/geometry/skeleton/index.ts';

/**
 * Roof building cost per shape, for `npm run bench`: whole building parts (walls, floor, roof and
 * the solid check) over the given normalised footprints, with the straight skeleton's share shown
 * separately (convex fast path, double-precision wavefront, CGAL).
 *
 * @example
 * const rows = await benchRoofs(footprints);
 * console.table(rows.map(({ strategies, ...r }) => r));
 */

export interface RoofBenchOptions {
  /** Shapes to measure (default: all twelve). */
  shapes?: readonly RoofShape[];
  /** Roof height, metres. */
  height?: number;
  /** Wall top, metres. */
  wallTopZ?: number;
}

const DEFAULTS: Required<RoofBenchOptions> = { shapes: ROOF_SHAPES, height: 4, wallTopZ: 10 };

export interface RoofBenchRow {
  shape: RoofShape;
  footprints: number;
  /** Milliseconds per 1,000 building parts of this roof shape, everything included. */
  msPer1000: number;
  /** Of which inside CGAL's straight skeleton (only footprints the fast paths could not do). */
  skeletonMsPer1000: number;
  /** Of which inside the convex fast-path skeleton. */
  convexSkeletonMsPer1000: number;
  /** Of which inside the double-precision wavefront skeleton (concave footprints, courtyards). */
  wavefrontSkeletonMsPer1000: number;
  /** Footprints the wavefront could not do, handed to CGAL. */
  wavefrontRejected: number;
  /** CGAL calls and failures. */
  skeletonCalls: number;
  skeletonFailures: number;
  /** Parts built as another shape than requested. */
  fallbacks: number;
  /** Parts per construction used (e.g. `gabled/skeleton`). */
  strategies: Record<string, number>;
}

export async function benchRoofs(footprints: readonly Footprint[], options: RoofBenchOptions = {}): Promise<RoofBenchRow[]> {
  const { shapes, height, wallTopZ } = { ...DEFAULTS, ...options };
  await loadSkeleton();
  const rows: RoofBenchRow[] = [];
  for (const shape of shapes) {
    resetSkeletonStats();
    const strategies: Record<string, number> = {};
    let fallbacks = 0;
    const started = performance.now();
    for (const footprint of footprints) {
      const part = buildBuildingPart(footprint, { baseZ: 0, wallTopZ, roof: { shape, height } });
      const name = part.roofStrategy ?? part.roofShape;
      strategies[name] = (strategies[name] ?? 0) + 1;
      if (part.roofShape !== shape) fallbacks++;
    }
    const ms = performance.now() - started;
    const sk = skeletonStats();
    const per1000 = (v: number) => Math.round((v / Math.max(footprints.length, 1)) * 1000);
    rows.push({
      shape,
      footprints: footprints.length,
      msPer1000: per1000(ms),
      skeletonMsPer1000: per1000(sk.ms),
      convexSkeletonMsPer1000: per1000(sk.convexMs),
      wavefrontSkeletonMsPer1000: per1000(sk.wavefrontMs),
      wavefrontRejected: sk.wavefrontRejected,
      skeletonCalls: sk.calls,
      skeletonFailures: sk.failures,
      fallbacks,
      strategies,
    });
  }
  return rows;
}
