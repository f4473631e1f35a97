import type { Path64, Paths64, PolyPath64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../types.ts';
import { normalizeFootprint } from '../ring.ts';

/**
 * Glue between our rings and Clipper2: Clipper works on integers, so coordinates go onto a
 * millimetre grid (the output precision), which also makes its results exact and repeatable.
 */
export const CLIPPER_SCALE = 1000;

export function ringPath(ring: Ring): Path64 {
  const path: Path64 = [];
  for (let i = 0; i < ring.length; i += 2) path.push({ x: Math.round(ring[i] * CLIPPER_SCALE), y: Math.round(ring[i + 1] * CLIPPER_SCALE) });
  return path;
}

export function pathRing(path: Path64): Ring {
  const ring: Ring = [];
  for (const p of path) ring.push(p.x / CLIPPER_SCALE, p.y / CLIPPER_SCALE);
  return ring;
}

export function footprintPaths(footprint: Footprint): Paths64 {
  return [footprint.outer, ...footprint.holes].map(ringPath);
}

/** Polygons with holes from a Clipper poly tree (islands inside holes become polygons of their own), normalised. */
export function footprintsFromTree(tree: PolyPath64): Footprint[] {
  const out: Footprint[] = [];
  const visit = (node: PolyPath64) => {
    for (let i = 0; i < node.count; i++) {
      const outer = node.child(i);
      const holes: Ring[] = [];
      for (let k = 0; k < outer.count; k++) {
        const hole = outer.child(k);
        holes.push(pathRing(hole.polygon ?? []));
        visit(hole);
      }
      const fp = normalizeFootprint({ outer: pathRing(outer.polygon ?? []), holes });
      if (fp) out.push(fp);
    }
  };
  visit(tree);
  return out;
}
