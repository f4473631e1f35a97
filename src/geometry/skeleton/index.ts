import type { Footprint } from '../types.ts';
import type { FootprintSkeleton } from './types.ts';
import { convexSkeleton } from './convex.ts';
import { wavefrontSkeleton } from './wavefront.ts';
import { skeletonIsPlausible } from './check.ts';
import { footprintSkeleton } from './cgal.ts';
import { stats } from './stats.ts';

/**
 * The straight skeleton of a footprint (polygon with holes): the lines where its sides, moving
 * inwards at one speed, meet. One face per side, every node at the height (offset time) of its
 * distance to that side, so lifting the nodes gives a roof of one pitch everywhere. Three
 * constructions share one result type (types.ts): a convex fast path (convex.ts), a
 * double-precision wavefront for everything else (wavefront.ts), both checked (check.ts) before
 * they are trusted, and CGAL's exact one (cgal.ts) for what they decline — when the optional
 * package that brings it is installed (cgal.ts says why it is optional and what happens without
 * it). Nothing here knows about roofs: buildings/roofs/skeleton-plan.ts turns a skeleton into a
 * roof plan.
 *
 * @example
 * await loadSkeleton(); // once per thread, before the first skeletonOf
 * const skeleton = skeletonOf(footprint); // a FootprintSkeleton, or why there is none
 */

export type { FootprintSkeleton, SkeletonStats } from './types.ts';
export { exactSkeletonStatus, footprintSkeleton, isSkeletonLoaded, loadCgalPackage, loadSkeleton, setExactSkeletonLoader } from './cgal.ts';
export type { ExactSkeletonBuilder, ExactSkeletonLoader } from './cgal.ts';
export { resetSkeletonStats, skeletonStats } from './stats.ts';

/**
 * The straight skeleton of a normalised footprint: the convex fast path when the footprint is
 * convex without holes; else the double-precision wavefront when its result passes the checks
 * of check.ts; else CGAL (exact, ~20× slower), or why there is none when CGAL is absent.
 */
export function skeletonOf(footprint: Footprint): FootprintSkeleton | string {
  let started = performance.now();
  const convex = convexSkeleton(footprint);
  if (convex && skeletonIsPlausible(footprint, convex)) {
    stats.convexCalls++;
    stats.convexMs += performance.now() - started;
    return convex;
  }
  started = performance.now();
  const wave = wavefrontSkeleton(footprint);
  const accepted = wave !== null && skeletonIsPlausible(footprint, wave);
  stats.wavefrontCalls++;
  stats.wavefrontMs += performance.now() - started;
  if (accepted) return wave;
  stats.wavefrontRejected++;
  return footprintSkeleton(footprint);
}
