import { Clipper, ClipType, FillRule, PolyTree64, type Path64, type Paths64, type PolyPath64 } from 'clipper2-ts';
import type { BBox, Footprint, Ring } from '../types.ts';
import { flatBounds, signedArea2 } from '../ring.ts';
import { boxRelation, type CropPolygon } from './crop-polygon.ts';

/** Pieces left by a cut smaller than this (m²) are Clipper's crumbs along the boundary. */
export const CLIP_AREAS_MIN_AREA = 1e-3;

/**
 * Clipper's integer grid for the cut: 0.01 mm. The pieces come on the millimetre grid (their
 * shared sides exact, clipper-paths.ts), which this grid holds exactly; new points on the polygon's
 * edges land within 0.01 mm of them instead of 0.7 mm, so after the output's millimetre rounding
 * nothing lies more than 0.72 mm outside the polygon.
 */
const FINE = 100000;

/**
 * Areas of ground (or any items with plan footprints) clipped to the polygon with Clipper2
 * (cropScene). Pieces that did not overlap stay non-overlapping: each is only intersected with the
 * same polygon. Items wholly inside come back as they were (same object), items wholly outside
 * are dropped, the rest get `cropped: true` in their descriptor.
 *
 * @example
 * const pieces = clipAreas(resolveOverlaps(areas, { cutOut, clip }), cropPolygon(tile.polygon));
 */
export function clipAreas<T extends { footprints: Footprint[]; descriptor: Record<string, unknown> }>(items: readonly T[], poly: CropPolygon): T[] {
  let polyPaths: Paths64 | null = null;
  const out: T[] = [];
  for (const item of items) {
    const relation = boxRelation(poly, footprintsBox(item.footprints));
    if (relation === 'inside') { out.push(item); continue; }
    if (relation === 'outside') continue;
    polyPaths ??= [finePath(poly.ring)];
    const subject: Paths64 = [];
    for (const f of item.footprints) for (const r of [f.outer, ...f.holes]) if (r.length >= 6) subject.push(finePath(r));
    const tree = new PolyTree64();
    Clipper.booleanOpWithPolyTree(ClipType.Intersection, subject, polyPaths, tree, FillRule.EvenOdd);
    const footprints = treeFootprints(tree, CLIP_AREAS_MIN_AREA);
    if (footprints.length === 0) continue;
    out.push({ ...item, footprints, descriptor: { ...item.descriptor, cropped: true } });
  }
  return out;
}

function finePath(ring: Ring): Path64 {
  const path: Path64 = [];
  for (let i = 0; i < ring.length; i += 2) path.push({ x: Math.round(ring[i] * FINE), y: Math.round(ring[i + 1] * FINE) });
  return path;
}

function fineRing(path: Path64, ccw: boolean): Ring {
  const ring: Ring = [];
  for (const p of path) ring.push(p.x / FINE, p.y / FINE);
  if ((signedArea2(ring) > 0) === ccw) return ring;
  const rev: Ring = [];
  for (let i = ring.length - 2; i >= 0; i -= 2) rev.push(ring[i], ring[i + 1]);
  return rev;
}

/** Polygons with holes from the tree (islands in holes are polygons of their own): outer counter-clockwise, holes clockwise. */
function treeFootprints(tree: PolyPath64, minArea: number): Footprint[] {
  const out: Footprint[] = [];
  const visit = (node: PolyPath64) => {
    for (let i = 0; i < node.count; i++) {
      const outer = node.child(i);
      const fp: Footprint = { outer: fineRing(outer.polygon ?? [], true), holes: [] };
      let area = Math.abs(signedArea2(fp.outer)) / 2;
      for (let k = 0; k < outer.count; k++) {
        const hole = outer.child(k);
        fp.holes.push(fineRing(hole.polygon ?? [], false));
        area -= Math.abs(signedArea2(fp.holes[fp.holes.length - 1])) / 2;
        visit(hole);
      }
      if (fp.outer.length >= 6 && area >= minArea) out.push(fp);
    }
  };
  visit(tree);
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
