import Flatbush from 'flatbush';
import { Clipper, PointInPolygonResult, type Paths64, type Rect64 } from 'clipper2-ts';

/**
 * A region (paths on the millimetre grid under the NonZero rule: outer rings positive, holes
 * negative, as Clipper writes a union or an offset) indexed for one question asked many times:
 * is a whole polygon inside it or outside it? Answered without a boolean sweep — one polygon's sides are
 * tested against the region's sides near them — and cautiously: any side of the polygon that
 * touches or crosses one of the region's leaves the answer `unknown`, so a polygon merely sharing a
 * side with the region's edge is left to the sweep that decides it exactly.
 *
 * Why: the filler's paved zone (surfaces/filler) is a union of offsets that covers nearly all of a
 * downtown's leftover ground; splitting every leftover polygon by it with Clipper cost a fifth of
 * the ground's time, while most of them lie well inside it.
 */
export interface RegionIndex {
  paths: Paths64;
  /** Each path's box and the sign of its area (+1 outer, −1 hole). */
  bounds: Rect64[];
  signs: Int8Array;
  /** Sides as x1, y1, x2, y2 (grid units), and an index of their boxes. */
  sides: Float64Array;
  index: Flatbush | null;
}

export function regionIndex(paths: Paths64): RegionIndex {
  let n = 0;
  for (const p of paths) n += p.length;
  const sides = new Float64Array(4 * n);
  const index = n > 0 ? new Flatbush(n) : null;
  const bounds: Rect64[] = [];
  const signs = new Int8Array(paths.length);
  let k = 0;
  paths.forEach((p, i) => {
    bounds.push(Clipper.getBounds(p));
    signs[i] = Clipper.area(p) >= 0 ? 1 : -1;
    for (let a = 0; a < p.length; a++) {
      const q = p[a],
        r = p[a + 1 < p.length ? a + 1 : 0];
      sides[4 * k] = q.x;
      sides[4 * k + 1] = q.y;
      sides[4 * k + 2] = r.x;
      sides[4 * k + 3] = r.y;
      index!.add(Math.min(q.x, r.x), Math.min(q.y, r.y), Math.max(q.x, r.x), Math.max(q.y, r.y));
      k++;
    }
  });
  index?.finish();
  return { paths, bounds, signs, sides, index };
}

/** Where a polygon lies against a region: wholly inside, wholly outside, or not certain (see regionIndex). */
export type RegionSide = 'inside' | 'outside' | 'unknown';

/**
 * Where the polygon (its paths: outer ring, then holes) lies against the region: when no side of
 * the polygon touches or crosses a side of the region, it is wholly inside or wholly outside,
 * decided at one of its vertices by the winding number of the region's paths — unless a ring of
 * the region lies inside the polygon (a hole of the region in a polygon inside it, an island of the
 * region in a polygon outside it). `unknown` otherwise: it may touch the region's edge, or cross it.
 */
export function regionSide(region: RegionIndex, polygon: Paths64): RegionSide {
  const index = region.index;
  if (polygon.length === 0 || polygon[0].length < 3) return 'unknown';
  if (!index) return 'outside';
  const s = region.sides;
  for (const ring of polygon) {
    for (let a = 0; a < ring.length; a++) {
      const p = ring[a],
        q = ring[a + 1 < ring.length ? a + 1 : 0];
      const hits = index.search(Math.min(p.x, q.x), Math.min(p.y, q.y), Math.max(p.x, q.x), Math.max(p.y, q.y));
      for (const h of hits) if (segmentsMeet(p.x, p.y, q.x, q.y, s[4 * h], s[4 * h + 1], s[4 * h + 2], s[4 * h + 3])) return 'unknown';
    }
  }
  const v = polygon[0][0];
  let winding = 0;
  for (let i = 0; i < region.paths.length; i++) {
    const b = region.bounds[i];
    if (v.x < b.left || v.x > b.right || v.y < b.top || v.y > b.bottom) continue;
    const at = Clipper.pointInPolygon(v, region.paths[i]);
    if (at === PointInPolygonResult.IsOn) return 'unknown';
    if (at === PointInPolygonResult.IsInside) winding += region.signs[i];
  }
  const inside = winding > 0;
  // a ring of the region apart from the polygon's sides but inside it: a hole in the region
  // (when inside) or an island of it (when outside) that the polygon only partly shares
  const box = Clipper.getBoundsPaths(polygon);
  for (let i = 0; i < region.paths.length; i++) {
    if (region.signs[i] > 0 === inside) continue;
    const b = region.bounds[i];
    if (b.left < box.left || b.right > box.right || b.top < box.top || b.bottom > box.bottom) continue;
    if (insidePolygon(region.paths[i][0], polygon)) return 'unknown';
  }
  return inside ? 'inside' : 'outside';
}

/** Whether a point lies inside a polygon with holes (on its edge counts as inside: cautious). */
function insidePolygon(pt: { x: number; y: number }, polygon: Paths64): boolean {
  let winding = 0;
  for (const ring of polygon) {
    const at = Clipper.pointInPolygon(pt, ring);
    if (at === PointInPolygonResult.IsOn) return true;
    if (at === PointInPolygonResult.IsInside) winding += Clipper.area(ring) >= 0 ? 1 : -1;
  }
  return winding > 0;
}

/** Whether two segments share any point (crossing, touching at an end or along a stretch). Exact on grid integers. */
export function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = orient(cx, cy, dx, dy, ax, ay),
    d2 = orient(cx, cy, dx, dy, bx, by),
    d3 = orient(ax, ay, bx, by, cx, cy),
    d4 = orient(ax, ay, bx, by, dx, dy);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) ||
    (d2 === 0 && onSegment(cx, cy, dx, dy, bx, by)) ||
    (d3 === 0 && onSegment(ax, ay, bx, by, cx, cy)) ||
    (d4 === 0 && onSegment(ax, ay, bx, by, dx, dy))
  );
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Whether p, collinear with a–b, lies within the segment's box. */
function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}
