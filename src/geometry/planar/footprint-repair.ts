import { Clipper, ClipType, FillRule, PolyTree64 } from 'clipper2-ts';
import type { Footprint } from '../types.ts';
import { footprintPaths, footprintsFromTree } from './clipper-paths.ts';
import { normalizeFootprint } from '../ring.ts';
import { ringsAreDisjointAndSimple } from './polygon-checks.ts';

/**
 * Real OSM footprints are sometimes invalid: self-intersecting rings, holes touching or crossing
 * their outer ring. Such input cannot become a closed solid as is, so it is rebuilt as the area it
 * encloses (non-zero winding) with Clipper2 on a millimetre grid, giving valid polygons with holes.
 */

/** True when no two edges of the footprint's rings cross or touch, other than neighbours at their shared corner. */
export function isSimpleFootprint(footprint: Footprint): boolean {
  return ringsAreDisjointAndSimple([footprint.outer, ...footprint.holes]);
}

/** Rebuilds a footprint as valid polygons with holes (the area its rings enclose, non-zero winding). */
export function repairFootprint(footprint: Footprint): Footprint[] {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, footprintPaths(footprint), null, tree, FillRule.NonZero);
  return footprintsFromTree(tree);
}

/** Normalises a footprint and, when it is not simple, repairs it into valid polygons. */
export function validFootprints(footprint: Footprint): Footprint[] {
  const fp = normalizeFootprint(footprint);
  if (!fp) return [];
  return isSimpleFootprint(fp) ? [fp] : repairFootprint(fp);
}
