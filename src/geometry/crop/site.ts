import { Clipper, ClipType, FillRule, PolyTree64, type Paths64 } from 'clipper2-ts';
import type { Ring } from '../types.ts';
import { cleanRing, flatBounds, pointInRing, quantizeRing, ringArea } from '../ring.ts';
import { finePath, fineTreeFootprints } from '../planar/fine-grid.ts';

/**
 * The site a request's ground and terrain cover (docs/ground.md "The site"): the polygon plus the
 * outlines of the buildings that meet it — a building crossing the boundary is returned whole, and
 * stands on ground and terrain all round. Courtyards such a building closes against the polygon
 * are part of the site too (the outer boundary of the union is kept), so the site is one ring.
 * Buildings wholly inside or wholly outside the polygon do not change it.
 *
 * @example
 * const site = cropPolygon(siteRing(tile.polygon, outlines));
 */
export function siteRing(polygon: Ring, outlines: readonly Ring[]): Ring {
  const crossing = outlines.filter((o) => o.length >= 6 && crossesPolygonBoundary(o, polygon));
  if (crossing.length === 0) return polygon;
  const subject: Paths64 = [finePath(polygon), ...crossing.map(finePath)];
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, subject, [], tree, FillRule.NonZero);
  let best: Ring = polygon,
    bestArea = 0;
  for (const fp of fineTreeFootprints(tree, 1e-6)) {
    const a = ringArea(fp.outer);
    if (a > bestArea) {
      bestArea = a;
      best = fp.outer;
    }
  }
  // on the millimetre grid, without corners closer than a centimetre: a cut along it makes no sliver
  const clean = cleanRing(quantizeRing(best), 0.01);
  return clean.length >= 6 ? clean : polygon;
}

/** Whether an outline meets the polygon without lying wholly inside it. */
function crossesPolygonBoundary(outline: Ring, polygon: Ring): boolean {
  const a = flatBounds(outline),
    b = flatBounds(polygon);
  if (a.maxX < b.minX || a.minX > b.maxX || a.maxY < b.minY || a.minY > b.maxY) return false;
  let inside = 0;
  const n = outline.length / 2;
  for (let k = 0; k < n; k++) if (pointInRing(outline[2 * k], outline[2 * k + 1], polygon)) inside++;
  if (inside > 0 && inside < n) return true; // corners on both sides
  if (inside === n) return edgesCross(outline, polygon); // inside, unless the boundary pokes in between corners
  // every corner outside: it meets the polygon only if the polygon reaches into it
  for (let k = 0; k < polygon.length; k += 2) if (pointInRing(polygon[k], polygon[k + 1], outline)) return true;
  return edgesCross(outline, polygon);
}

function edgesCross(a: Ring, b: Ring): boolean {
  const n = a.length / 2,
    m = b.length / 2;
  for (let i = 0; i < n; i++) {
    const ax = a[2 * i],
      ay = a[2 * i + 1],
      bx = a[(2 * i + 2) % a.length],
      by = a[(2 * i + 3) % a.length];
    for (let j = 0; j < m; j++) {
      const cx = b[2 * j],
        cy = b[2 * j + 1],
        dx = b[(2 * j + 2) % b.length],
        dy = b[(2 * j + 3) % b.length];
      const d1 = orient(cx, cy, dx, dy, ax, ay),
        d2 = orient(cx, cy, dx, dy, bx, by),
        d3 = orient(ax, ay, bx, by, cx, cy),
        d4 = orient(ax, ay, bx, by, dx, dy);
      if (d1 * d2 < 0 && d3 * d4 < 0) return true;
    }
  }
  return false;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}
