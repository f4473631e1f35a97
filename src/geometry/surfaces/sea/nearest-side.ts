import type { CoastChain } from './chains.ts';
import type { BBox } from '../../types.ts';

/**
 * Which side of the coast a point lies on, by its nearest mapped coastline: water on the right of
 * the way's direction, land on the left. For consistent coastline data this is exact (the straight
 * line from the point to its nearest coast point crosses no coast). At a vertex the side is that
 * of the wedge the two segments make there (a point nearest to a corner of a quay is on the land
 * side when it lies in the land's angle). Segments added by `extendOpenEnds` (null id) are not
 * mapped coast and are not consulted.
 *
 * Returns 'water' or 'land' when the nearest coast lies within `maxDistance`, else null (no coast
 * nearby: the caller cannot tell).
 */
export function nearestCoastSide(
  chains: readonly CoastChain[],
  x: number,
  y: number,
  maxDistance: number,
  uses: SegmentFilter = mappedOnly,
): 'water' | 'land' | null {
  let best = Infinity,
    bestChain = -1,
    bestSegment = -1,
    bestT = 0;
  // a loop, not forEach: a callback is a closure whose optimised code V8 drops at every full collection
  for (let ci = 0; ci < chains.length; ci++) {
    const c = chains[ci];
    const p = c.points,
      n = p.length / 2;
    const segments = c.closed ? n : n - 1;
    for (let s = 0; s < segments; s++) {
      if (!uses(c, s)) continue;
      const e = (s + 1) % n;
      const ax = p[2 * s],
        ay = p[2 * s + 1],
        bx = p[2 * e],
        by = p[2 * e + 1];
      // quick reject: the segment's box farther than the best so far
      if (Math.max(ax, bx) < x - best || Math.min(ax, bx) > x + best || Math.max(ay, by) < y - best || Math.min(ay, by) > y + best) continue;
      const dx = bx - ax,
        dy = by - ay,
        len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
      const d = Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
      if (d < best) {
        best = d;
        bestChain = ci;
        bestSegment = s;
        bestT = t;
      }
    }
  }
  if (bestChain < 0 || best > maxDistance || best === 0) return null;
  const c = chains[bestChain],
    p = c.points,
    n = p.length / 2;
  const s = bestSegment,
    e = (s + 1) % n;
  const realSegment = (k: number) => (c.closed ? uses(c, (k + n) % n) : k >= 0 && k < n - 1 && uses(c, k));
  let left: boolean;
  if (bestT === 0 && realSegment(s - 1)) {
    const h = (s - 1 + n) % n;
    left = wedgeLeft(p[2 * h], p[2 * h + 1], p[2 * s], p[2 * s + 1], p[2 * e], p[2 * e + 1], x, y);
  } else if (bestT === 1 && realSegment(s + 1)) {
    const f = (e + 1) % n;
    left = wedgeLeft(p[2 * s], p[2 * s + 1], p[2 * e], p[2 * e + 1], p[2 * f], p[2 * f + 1], x, y);
  } else {
    left = cross(p[2 * e] - p[2 * s], p[2 * e + 1] - p[2 * s + 1], x - p[2 * s], y - p[2 * s + 1]) > 0;
  }
  return left ? 'land' : 'water';
}

/** Which segments of a chain are consulted. */
export type SegmentFilter = (chain: CoastChain, segment: number) => boolean;

/** Mapped segments only (not those added by `extendOpenEnds`). */
export const mappedOnly: SegmentFilter = (chain, segment) => chain.segmentIds[segment] !== null;

function cross(ax: number, ay: number, bx: number, by: number): number {
  return ax * by - ay * bx;
}

/** Whether (x, y) lies on the left of the path a → v → b near v. */
function wedgeLeft(ax: number, ay: number, vx: number, vy: number, bx: number, by: number, x: number, y: number): boolean {
  const c1 = cross(vx - ax, vy - ay, x - vx, y - vy);
  const c2 = cross(bx - vx, by - vy, x - vx, y - vy);
  const turn = cross(vx - ax, vy - ay, bx - vx, by - vy);
  if (turn > 0) return c1 > 0 && c2 > 0; // a left turn: the land's angle is the convex one
  if (turn < 0) return c1 > 0 || c2 > 0; // a right turn: the land's angle is reflex
  return c1 + c2 > 0;
}

/**
 * The point of the box nearest to the coastline (the segments `uses` accepts) and its distance; null without mapped coastline. A square no coastline crosses
 * lies wholly on one side, and every coastline within the caller's margin of the square was read,
 * so deciding at this point trusts the data as far as the margin reaches from the square's edge
 * (from its centre it would reach half a diagonal less).
 */
export function nearestBoxPoint(chains: readonly CoastChain[], box: BBox, uses: SegmentFilter = mappedOnly): { x: number; y: number; distance: number } | null {
  let best: { x: number; y: number; distance: number } | null = null;
  const consider = (x: number, y: number, distance: number) => {
    if (!best || distance < best.distance) best = { x, y, distance };
  };
  const corners: [number, number][] = [
    [box.minX, box.minY],
    [box.maxX, box.minY],
    [box.maxX, box.maxY],
    [box.minX, box.maxY],
  ];
  for (const c of chains) {
    const p = c.points,
      n = p.length / 2;
    for (let s = 0; s < (c.closed ? n : n - 1); s++) {
      if (!uses(c, s)) continue;
      const e = (s + 1) % n;
      const ax = p[2 * s],
        ay = p[2 * s + 1],
        bx = p[2 * e],
        by = p[2 * e + 1];
      for (const [x, y] of [
        [ax, ay],
        [bx, by],
      ]) {
        const cx = Math.min(box.maxX, Math.max(box.minX, x)),
          cy = Math.min(box.maxY, Math.max(box.minY, y));
        consider(cx, cy, Math.hypot(x - cx, y - cy));
      }
      const dx = bx - ax,
        dy = by - ay,
        len2 = dx * dx + dy * dy;
      for (const [x, y] of corners) {
        const t = len2 > 0 ? Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
        consider(x, y, Math.hypot(x - (ax + t * dx), y - (ay + t * dy)));
      }
    }
  }
  return best;
}
