import { Clipper, ClipType, FillRule, PolyTree64, type Paths64 } from 'clipper2-ts';
import type { Footprint } from '../../types.ts';
import { footprintPaths, footprintsFromTree } from '../../planar/clipper-paths.ts';

/**
 * Where the ground pieces leave the terrain bare inside `clip`: under the buildings cut out of the
 * ground (their union, on the millimetre grid the pieces live on). Returned as the terrain there,
 * the terrain mesh meets the ground pieces without lying under them (no z-fighting in a file that
 * holds both, docs/terrain.md).
 *
 * @example
 * const bare = bareGround(cutOuts, tileSquare);
 */
export function bareGround(cutOut: readonly Footprint[], clip: Footprint): Footprint[] {
  if (cutOut.length === 0) return [];
  const subject: Paths64 = cutOut.flatMap(footprintPaths);
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Intersection, Clipper.union(subject, FillRule.NonZero), footprintPaths(clip), tree, FillRule.NonZero);
  return footprintsFromTree(tree);
}
