import { Clipper, ClipType, FillRule, PolyTree64, type Paths64 } from 'clipper2-ts';
import type { BBox, Footprint } from '../types.ts';
import { flatBounds } from '../ring.ts';
import { footprintsFromTree, ringPath } from '../planar/clipper-paths.ts';
import { ringArea } from '../ring.ts';
import { boxRelation, type CropPolygon } from './crop-polygon.ts';

/** Pieces left by a cut smaller than this (m²) are Clipper's crumbs along the boundary. */
export const CLIP_AREAS_MIN_AREA = 1e-3;

/**
 * Areas of ground (or any items with plan footprints) clipped to the polygon with Clipper2 (the
 * site, or the polygon with cropScene), on the millimetre grid the pieces live on: the points
 * the cut adds are then exactly what the output prints (a triangle of a piece that faces up still
 * does, with its area, after the output's rounding), within 0.71 mm of the polygon's edge. Pieces that did not overlap stay non-overlapping: each is only intersected with the
 * same polygon. Items wholly inside come back as they were (same object), items wholly outside
 * are dropped, the rest get `cropped: true` in their descriptor (unless `markCropped` is false:
 * a cut that is the system's, not the user's, such as a cache cell's). Within an item that is
 * cut, footprints wholly inside or outside the polygon are kept or dropped as they are; only
 * those that cross it go through the sweep (a filler area holds hundreds of footprints, and a
 * tile's edge crosses a few).
 *
 * @example
 * const pieces = clipAreas(resolveOverlaps(areas, { cutOut, clip }), cropPolygon(tile.polygon));
 */
export function clipAreas<T extends { footprints: Footprint[]; descriptor: Record<string, unknown> }>(
  items: readonly T[],
  poly: CropPolygon,
  markCropped = true,
): T[] {
  let polyPaths: Paths64 | null = null;
  const out: T[] = [];
  for (const item of items) {
    const relation = boxRelation(poly, footprintsBox(item.footprints));
    if (relation === 'inside') {
      out.push(item);
      continue;
    }
    if (relation === 'outside') continue;
    const kept: Footprint[] = [];
    const subject: Paths64 = [];
    for (const f of item.footprints) {
      const own = item.footprints.length === 1 ? 'crosses' : boxRelation(poly, flatBounds(f.outer));
      if (own === 'inside') kept.push(f);
      else if (own === 'crosses') for (const r of [f.outer, ...f.holes]) if (r.length >= 6) subject.push(ringPath(r));
    }
    if (subject.length > 0) {
      polyPaths ??= [ringPath(poly.ring)];
      const tree = new PolyTree64();
      Clipper.booleanOpWithPolyTree(ClipType.Intersection, subject, polyPaths, tree, FillRule.EvenOdd);
      for (const f of footprintsFromTree(tree)) if (ringArea(f.outer) - f.holes.reduce((a, h) => a + ringArea(h), 0) >= CLIP_AREAS_MIN_AREA) kept.push(f);
    }
    if (kept.length === 0) continue;
    out.push({ ...item, footprints: kept, descriptor: markCropped ? { ...item.descriptor, cropped: true } : item.descriptor });
  }
  return out;
}

function footprintsBox(footprints: readonly Footprint[]): BBox {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const f of footprints) {
    const b = flatBounds(f.outer);
    minX = Math.min(minX, b.minX);
    minY = Math.min(minY, b.minY);
    maxX = Math.max(maxX, b.maxX);
    maxY = Math.max(maxY, b.maxY);
  }
  return { minX, minY, maxX, maxY };
}
