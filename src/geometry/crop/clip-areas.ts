import { ClipType, type Paths64 } from 'clipper2-ts';
import type { BBox, Footprint } from '../types.ts';
import { ringPath } from '../clipper-paths.ts';
import { booleanPieces, pathsOf } from '../surfaces/assemble/pieces.ts';
import { flatBounds } from '../ring.ts';
import { boxRelation, type CropPolygon } from './crop-polygon.ts';

/** Pieces left by a cut smaller than this (m²) are Clipper's crumbs along the boundary. */
export const CLIP_AREAS_MIN_AREA = 1e-3;

/**
 * Areas of ground (or any items with plan footprints) clipped to the polygon with Clipper2 on the
 * millimetre grid (cropScene). Pieces that did not overlap stay non-overlapping: each is only
 * intersected with the same polygon. Items wholly inside come back as they were (same object),
 * items wholly outside are dropped, the rest get `cropped: true` in their descriptor.
 *
 * @example
 * const pieces = clipAreas(resolveOverlaps(areas, { cutOut, clip }), cropPolygon(tile.polygon));
 */
export function clipAreas<T extends { footprints: Footprint[]; descriptor: Record<string, unknown> }>(items: readonly T[], poly: CropPolygon): T[] {
  let polyPaths: Paths64 | null = null;
  const out: T[] = [];
  for (const item of items) {
    const box = footprintsBox(item.footprints);
    const relation = boxRelation(poly, box);
    if (relation === 'inside') { out.push(item); continue; }
    if (relation === 'outside') continue;
    polyPaths ??= [ringPath(poly.ring)];
    const footprints = booleanPieces(ClipType.Intersection, pathsOf(item.footprints), polyPaths, CLIP_AREAS_MIN_AREA);
    if (footprints.length === 0) continue;
    out.push({ ...item, footprints, descriptor: { ...item.descriptor, cropped: true } });
  }
  return out;
}

function footprintsBox(footprints: readonly Footprint[]): BBox {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const f of footprints) {
    const b = flatBounds(f.outer);
    minX = Math.min(minX, b.minX); minY = Math.min(minY, b.minY); maxX = Math.max(maxX, b.maxX); maxY = Math.max(maxY, b.maxY);
  }
  return { minX, minY, maxX, maxY };
}
