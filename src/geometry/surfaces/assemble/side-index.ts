import Flatbush from 'flatbush';
import type { Footprint, Ring } from '../../types.ts';

/**
 * An index of the sides of the kept pieces (resolve-overlaps.ts), for what meets them: which piece
 * a sliver touches and how much (slivers.ts), whether a thin part of the base ground lies along a
 * piece (clean-pieces.ts).
 */

/** Sides within this distance (metres) of each other run along each other. */
export const TOUCH = 0.002;

/** A sliver touches a piece when at least this much (metres) of its boundary runs along the piece's. */
export const MIN_TOUCH = 0.01;

/** Whether the side at `i` in `xy` (x1, y1, x2, y2) runs along indexed sides for at least MIN_TOUCH. */
export function alongAny(sides: SideIndex, xy: readonly number[], i: number): boolean {
  const px = xy[i],
    py = xy[i + 1],
    qx = xy[i + 2],
    qy = xy[i + 3];
  let along = 0;
  for (const h of sides.index.search(Math.min(px, qx) - TOUCH, Math.min(py, qy) - TOUCH, Math.max(px, qx) + TOUCH, Math.max(py, qy) + TOUCH)) {
    along += runsAlong(px, py, qx, qy, sides.xy, h);
    if (along >= MIN_TOUCH) return true;
  }
  return false;
}

export interface SideIndex {
  index: Flatbush;
  /** x1, y1, x2, y2 of each side. */
  xy: Float64Array;
  /** Area (index into `kept`) and polygon (index into its footprints) of each side. */
  area: Int32Array;
  polygon: Int32Array;
}

export function sideIndex(kept: readonly (Footprint[] | null)[]): SideIndex {
  let n = 0;
  for (const pieces of kept)
    if (pieces)
      for (const f of pieces) {
        n += f.outer.length / 2;
        for (const h of f.holes) n += h.length / 2;
      }
  const index = new Flatbush(Math.max(n, 1));
  const xy = new Float64Array(4 * n),
    area = new Int32Array(n),
    polygon = new Int32Array(n);
  let s = 0;
  // loops, not forEach: a callback is a closure whose optimised code V8 drops at every full collection
  for (let k = 0; k < kept.length; k++) {
    const pieces = kept[k];
    if (!pieces) continue;
    for (let i = 0; i < pieces.length; i++) {
      const f = pieces[i];
      s = addSides(f.outer, k, i, s, index, xy, area, polygon);
      for (const h of f.holes) s = addSides(h, k, i, s, index, xy, area, polygon);
    }
  }
  if (n === 0) index.add(0, 0, 0, 0);
  index.finish();
  return { index, xy, area, polygon };
}

function addSides(ring: Ring, k: number, i: number, s: number, index: Flatbush, xy: Float64Array, area: Int32Array, polygon: Int32Array): number {
  const n = ring.length / 2;
  for (let a = 0; a < n; a++, s++) {
    const b = a + 1 < n ? a + 1 : 0;
    const x1 = ring[2 * a],
      y1 = ring[2 * a + 1],
      x2 = ring[2 * b],
      y2 = ring[2 * b + 1];
    xy[4 * s] = x1;
    xy[4 * s + 1] = y1;
    xy[4 * s + 2] = x2;
    xy[4 * s + 3] = y2;
    area[s] = k;
    polygon[s] = i;
    index.add(Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2));
  }
  return s;
}

/** Length of side p→q that runs within TOUCH of side h (its stretch over h, both ends within TOUCH of h). */
export function runsAlong(px: number, py: number, qx: number, qy: number, xy: Float64Array, h: number): number {
  const vx = qx - px,
    vy = qy - py,
    len = Math.hypot(vx, vy);
  if (len === 0) return 0;
  const cx = xy[4 * h],
    cy = xy[4 * h + 1],
    dx = xy[4 * h + 2],
    dy = xy[4 * h + 3];
  const tc = ((cx - px) * vx + (cy - py) * vy) / len,
    td = ((dx - px) * vx + (dy - py) * vy) / len;
  const lo = Math.max(0, Math.min(tc, td)),
    hi = Math.min(len, Math.max(tc, td));
  if (!(hi > lo)) return 0;
  if (distance2(px + (vx * lo) / len, py + (vy * lo) / len, cx, cy, dx, dy) > TOUCH * TOUCH) return 0;
  if (distance2(px + (vx * hi) / len, py + (vy * hi) / len, cx, cy, dx, dy) > TOUCH * TOUCH) return 0;
  return hi - lo;
}

function distance2(x: number, y: number, cx: number, cy: number, dx: number, dy: number): number {
  const ux = dx - cx,
    uy = dy - cy,
    len2 = ux * ux + uy * uy;
  let t = len2 > 0 ? ((x - cx) * ux + (y - cy) * uy) / len2 : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const ex = cx + t * ux - x,
    ey = cy + t * uy - y;
  return ex * ex + ey * ey;
}

/** Side p→q and side h cross, each passing strictly through the other. */
export function crosses(px: number, py: number, qx: number, qy: number, xy: Float64Array, h: number): boolean {
  const cx = xy[4 * h],
    cy = xy[4 * h + 1],
    dx = xy[4 * h + 2],
    dy = xy[4 * h + 3];
  const d1 = (dx - cx) * (py - cy) - (dy - cy) * (px - cx),
    d2 = (dx - cx) * (qy - cy) - (dy - cy) * (qx - cx);
  const d3 = (qx - px) * (cy - py) - (qy - py) * (cx - px),
    d4 = (qx - px) * (dy - py) - (qy - py) * (dx - px);
  return ((d1 < 0 && d2 > 0) || (d1 > 0 && d2 < 0)) && ((d3 < 0 && d4 > 0) || (d3 > 0 && d4 < 0));
}
