import Flatbush from 'flatbush';
import type { Ring } from '../../types.ts';
import { cross, foldsBack, needle, sharedStretch } from './corner-shapes.ts';
import { edgesOf, type Edges } from './ring-sides.ts';

/**
 * A cheap test of whether a polygon can have parts narrower than `width`: only such a polygon
 * needs the morphological opening of planar/pieces.ts (three Clipper sweeps), every other one is kept as
 * Clipper wrote it. Most pieces of the ground have no thin part at all, so this is where the
 * assembly saves most of its time.
 *
 * A thin part is two stretches of the boundary that face each other across the inside less than
 * `width` apart while the way between them along the boundary is much longer (FACING times) than
 * that gap: a strip, a spike, a neck, a needle, a hole nearly touching the outer ring — or a corner
 * sharper than 20° (a needle's tip, whatever its length; milder corners are kept). Near points
 * that are near along the boundary too — a corner cut by a short side, a curve of short sides — are
 * no thin part; neither are two sides facing across the outside (a notch, a gap between lobes).
 * Sides that cross or touch (other than neighbours at their shared corner), and a side folding
 * back onto its neighbour, count as thin, so a polygon that passes is also valid (no crossing sides).
 *
 * With `spots`, every thin place is appended to it (SPOT numbers each): the opening can then be
 * done there only — by cutting away the quadrilateral between the two sides, or (sides crossing)
 * by a local opening (clean-pieces.ts).
 *
 * The test looks at the closest points of every pair of sides within `width` and at each side's
 * ends against the other side, which finds every thin part the opening would take except the middle
 * of a long needle whose ends are all wider than `width` — a sharp corner kept, not a sliver.
 */
export function hasThinParts(rings: readonly Ring[], width: number, spots?: number[]): boolean {
  let n = 0;
  for (const r of rings) n += r.length / 2;
  if (n < 3) return false;
  const e = edgesOf(rings, n);
  let found = false;
  if (n <= SMALL) {
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++) {
        if (!thinPair(e, a, b, width, spots)) continue;
        if (!spots) return true;
        found = true;
      }
    return found;
  }
  const index = new Flatbush(n);
  for (let a = 0; a < n; a++) index.add(Math.min(e.x1[a], e.x2[a]), Math.min(e.y1[a], e.y2[a]), Math.max(e.x1[a], e.x2[a]), Math.max(e.y1[a], e.y2[a]));
  index.finish();
  for (let a = 0; a < n; a++) {
    const near = index.search(
      Math.min(e.x1[a], e.x2[a]) - width,
      Math.min(e.y1[a], e.y2[a]) - width,
      Math.max(e.x1[a], e.x2[a]) + width,
      Math.max(e.y1[a], e.y2[a]) + width,
    );
    for (const b of near) {
      if (b <= a || !thinPair(e, a, b, width, spots)) continue;
      if (!spots) return true;
      found = true;
    }
  }
  return found;
}

/**
 * A thin place in `spots`, SPOT numbers: its kind (CUT: the quadrilateral that follows, between the
 * stretches of the two sides that face each other within the width, or across a neck between two
 * corners — cutting it away is the opening there; OPEN: sides that cross or overlap, for the
 * opening proper), the two sides (x1, y1, x2, y2 each), then the quadrilateral's corners (four x, y;
 * zeros for OPEN), then how wide the thin part gets there at most (metres; 0 for OPEN).
 */
export const SPOT = 18;
export const CUT = 0,
  OPEN = 1;

/** The quadrilateral reaches this far (metres) past the two sides, out of the polygon: cut away, it leaves no hairline along them. */
const CUT_MARGIN = 0.002;

/** Appends the box (minX, minY, maxX, maxY) of the sides of the thin place at `i` in `spots` to `boxes`. */
export function spotBox(spots: readonly number[], i: number, boxes: number[]): void {
  boxes.push(
    Math.min(spots[i + 1], spots[i + 3], spots[i + 5], spots[i + 7]),
    Math.min(spots[i + 2], spots[i + 4], spots[i + 6], spots[i + 8]),
    Math.max(spots[i + 1], spots[i + 3], spots[i + 5], spots[i + 7]),
    Math.max(spots[i + 2], spots[i + 4], spots[i + 6], spots[i + 8]),
  );
}

function pushPlace(e: Edges, a: number, b: number, kind: number, spots: number[] | undefined): void {
  if (!spots) return;
  spots.push(kind, e.x1[a], e.y1[a], e.x2[a], e.y2[a], e.x1[b], e.y1[b], e.x2[b], e.y2[b]);
  if (kind === OPEN) spots.push(0, 0, 0, 0, 0, 0, 0, 0, 0);
}

/** The way along the boundary between two near points is over FACING times their distance: a thin part. */
const FACING = 3;

/** Up to this many sides every pair is looked at; beyond, an index finds the near ones. */
const SMALL = 24;

/** Whether sides a < b make a thin part (see hasThinParts); if so, appends the place(s) to `spots`. */
function thinPair(e: Edges, a: number, b: number, width: number, spots?: number[]): boolean {
  const ax = e.x1[a],
    ay = e.y1[a],
    bx = e.x2[a],
    by = e.y2[a];
  const cx = e.x1[b],
    cy = e.y1[b],
    dx = e.x2[b],
    dy = e.y2[b];
  if (
    Math.max(cx, dx) < Math.min(ax, bx) - width ||
    Math.min(cx, dx) > Math.max(ax, bx) + width ||
    Math.max(cy, dy) < Math.min(ay, by) - width ||
    Math.min(cy, dy) > Math.max(ay, by) + width
  )
    return false;
  const sameRing = e.start[a] === e.start[b];
  if (sameRing && (b === a + 1 || (a === e.start[a] && b === e.start[a] + e.count[a] - 1))) {
    const [first, second] = b === a + 1 ? [a, b] : [b, a];
    const px = e.x1[first],
      py = e.y1[first],
      qx = e.x2[first],
      qy = e.y2[first],
      rx = e.x2[second],
      ry = e.y2[second];
    if (foldsBack(px, py, qx, qy, rx, ry)) {
      pushPlace(e, a, b, OPEN, spots);
      return true;
    }
    if (!needle(px, py, qx, qy, rx, ry)) return false;
    if (spots) {
      pushCut(e, first, second, width, spots);
      pushCut(e, second, first, width, spots);
    }
    return true;
  }
  // crossing or touching (not at a shared corner: those are neighbours, handled above)
  const d1 = cross(cx, cy, dx, dy, ax, ay),
    d2 = cross(cx, cy, dx, dy, bx, by);
  const d3 = cross(ax, ay, bx, by, cx, cy),
    d4 = cross(ax, ay, bx, by, dx, dy);
  if (((d1 <= 0 && d2 >= 0) || (d1 >= 0 && d2 <= 0)) && ((d3 <= 0 && d4 >= 0) || (d3 >= 0 && d4 <= 0))) {
    const collinear = d1 === 0 && d2 === 0 && d3 === 0 && d4 === 0;
    const proper = (d1 < 0 && d2 > 0) || (d1 > 0 && d2 < 0);
    // collinear sides apart from each other do not meet although all four signs are zero
    if ((proper && ((d3 < 0 && d4 > 0) || (d3 > 0 && d4 < 0))) || (collinear && sharedStretch(ax, ay, bx, by, cx, cy, dx, dy))) {
      pushPlace(e, a, b, OPEN, spots);
      return true;
    }
    // touching at a point: the wedges beside it are cut like any thin part
  }
  // touching and not thin: a corner on a side, which Clipper writes and the meshes take
  if (!sideThin(e, a, b, width) && !sideThin(e, b, a, width)) return false;
  if (spots) {
    const before = spots.length;
    pushCut(e, a, b, width, spots);
    pushCut(e, b, a, width, spots);
    if (spots.length === before && !pushNeck(e, a, b, spots)) pushPlace(e, a, b, OPEN, spots);
  }
  return true;
}

/** Necks narrower than this (metres) are left to the opening proper. */
const MIN_NECK = 0.005;

/**
 * A neck between the ends of two sides (no stretch of one lies over the other: two corners, or a
 * corner and a side, near each other): the rectangle across it from the nearest point of one side
 * to that of the other, as wide as the neck and reaching CUT_MARGIN out of the polygon at both
 * ends. False for a neck under MIN_NECK (Clipper's rounding: no good direction across, the
 * opening proper is safer there).
 */
function pushNeck(e: Edges, a: number, b: number, spots: number[]): boolean {
  let best = Infinity,
    px = 0,
    py = 0,
    qx = 0,
    qy = 0;
  for (const [s, t] of [
    [a, b],
    [b, a],
  ]) {
    for (const u of [0, 1]) {
      const x = u ? e.x2[s] : e.x1[s],
        y = u ? e.y2[s] : e.y1[s];
      const cx = e.x1[t],
        cy = e.y1[t],
        ux = e.x2[t] - cx,
        uy = e.y2[t] - cy,
        len2 = ux * ux + uy * uy;
      let f = len2 > 0 ? ((x - cx) * ux + (y - cy) * uy) / len2 : 0;
      if (f < 0) f = 0;
      else if (f > 1) f = 1;
      const d = Math.hypot(x - cx - f * ux, y - cy - f * uy);
      if (d < best) {
        best = d;
        px = x;
        py = y;
        qx = cx + f * ux;
        qy = cy + f * uy;
      }
    }
  }
  if (!(best >= MIN_NECK)) return false;
  const dx = (qx - px) / best,
    dy = (qy - py) / best; // unit vector across the neck
  const half = Math.max(best, 2 * CUT_MARGIN) / 2;
  const x0 = px - dx * CUT_MARGIN,
    y0 = py - dy * CUT_MARGIN,
    x1 = qx + dx * CUT_MARGIN,
    y1 = qy + dy * CUT_MARGIN;
  spots.push(
    CUT,
    e.x1[a],
    e.y1[a],
    e.x2[a],
    e.y2[a],
    e.x1[b],
    e.y1[b],
    e.x2[b],
    e.y2[b],
    x0 - dy * half,
    y0 + dx * half,
    x1 - dy * half,
    y1 + dx * half,
    x1 + dy * half,
    y1 - dx * half,
    x0 + dy * half,
    y0 - dx * half,
    best,
  );
  return true;
}

/**
 * The quadrilateral between the stretch of side s that lies over side t (within the width) and its
 * projection onto t, each side of it pushed CUT_MARGIN out of the polygon; nothing when there is
 * no such stretch.
 */
function pushCut(e: Edges, s: number, t: number, width: number, spots: number[]): void {
  const range = stretch(e, s, t, width);
  if (!range) return;
  const sx = e.x1[s],
    sy = e.y1[s],
    vx = e.x2[s] - sx,
    vy = e.y2[s] - sy;
  const cx = e.x1[t],
    cy = e.y1[t],
    ux = e.x2[t] - cx,
    uy = e.y2[t] - cy;
  const len2 = ux * ux + uy * uy;
  const start = spots.length;
  spots.push(CUT, sx, sy, sx + vx, sy + vy, cx, cy, cx + ux, cy + uy);
  let widest = 0;
  for (const u of range) {
    const px = sx + u * vx,
      py = sy + u * vy;
    let f = ((px - cx) * ux + (py - cy) * uy) / len2;
    if (f < 0) f = 0;
    else if (f > 1) f = 1;
    const qx = cx + f * ux,
      qy = cy + f * uy;
    // the margin points away from the other side; none where the sides touch
    const g = Math.hypot(px - qx, py - qy);
    if (g > widest) widest = g;
    const mx = g > 0 ? (CUT_MARGIN * (px - qx)) / g : 0,
      my = g > 0 ? (CUT_MARGIN * (py - qy)) / g : 0;
    spots.push(px + mx, py + my, qx - mx, qy - my);
  }
  // corners p0, q0, p1, q1 → p0, p1, q1, q0
  const q0x = spots[start + 11],
    q0y = spots[start + 12];
  spots[start + 11] = spots[start + 13];
  spots[start + 12] = spots[start + 14];
  spots[start + 13] = spots[start + 15];
  spots[start + 14] = spots[start + 16];
  spots[start + 15] = q0x;
  spots[start + 16] = q0y;
  spots.push(widest);
}

/**
 * Points of side s against side t: s's ends, and the ends and middle of the stretch of s that lies
 * over t (projecting onto t, on its inside, within the width of its line). The distance to t and
 * the way along the boundary are linear along that stretch, so these points stand for all of it.
 */
function sideThin(e: Edges, s: number, t: number, width: number): boolean {
  if (pointThin(e, s, t, 0, width) || pointThin(e, s, t, 1, width)) return true;
  const range = stretch(e, s, t, width);
  if (!range) return false;
  const [lo, hi] = range;
  return pointThin(e, s, t, lo, width) || pointThin(e, s, t, hi, width) || pointThin(e, s, t, (lo + hi) / 2, width);
}

/** The stretch [lo, hi] (0…1 along s) of side s that projects onto side t, on its inside, within the width of its line; null when empty. */
function stretch(e: Edges, s: number, t: number, width: number): [number, number] | null {
  const sx = e.x1[s],
    sy = e.y1[s],
    vx = e.x2[s] - sx,
    vy = e.y2[s] - sy;
  const cx = e.x1[t],
    cy = e.y1[t],
    ux = e.x2[t] - cx,
    uy = e.y2[t] - cy;
  const len2 = ux * ux + uy * uy;
  if (len2 === 0) return null;
  const len = Math.sqrt(len2);
  // projection onto t (0…1 over t) and distance from t's line (positive inside), both f0 + u·f1 along s
  const f0 = ((sx - cx) * ux + (sy - cy) * uy) / len2,
    f1 = (vx * ux + vy * uy) / len2;
  const h0 = (ux * (sy - cy) - uy * (sx - cx)) / len,
    h1 = (ux * vy - uy * vx) / len;
  let lo = 0,
    hi = 1;
  if (f1 === 0) {
    if (f0 < 0 || f0 > 1) return null;
  } else {
    const p = -f0 / f1,
      q = (1 - f0) / f1;
    lo = Math.max(lo, Math.min(p, q));
    hi = Math.min(hi, Math.max(p, q));
  }
  if (h1 === 0) {
    if (h0 < 0 || h0 >= width) return null;
  } else {
    const p = -h0 / h1,
      q = (width - h0) / h1;
    lo = Math.max(lo, Math.min(p, q));
    hi = Math.min(hi, Math.max(p, q));
  }
  return lo < hi ? [lo, hi] : null;
}

/**
 * The point at `u` (0…1) along side s against side t: thin when within the width of t, each facing
 * the other's inside (left: outer rings counter-clockwise, holes clockwise) and far apart along the boundary.
 */
function pointThin(e: Edges, s: number, t: number, u: number, width: number): boolean {
  const sx1 = e.x1[s],
    sy1 = e.y1[s],
    sx2 = e.x2[s],
    sy2 = e.y2[s];
  const px = sx1 + u * (sx2 - sx1),
    py = sy1 + u * (sy2 - sy1);
  const cx = e.x1[t],
    cy = e.y1[t],
    dx = e.x2[t],
    dy = e.y2[t];
  const ux = dx - cx,
    uy = dy - cy,
    len2 = ux * ux + uy * uy;
  let f = len2 > 0 ? ((px - cx) * ux + (py - cy) * uy) / len2 : 0;
  if (f < 0) f = 0;
  else if (f > 1) f = 1;
  const qx = cx + f * ux,
    qy = cy + f * uy;
  const gx = px - qx,
    gy = py - qy,
    g2 = gx * gx + gy * gy;
  if (g2 >= width * width) return false;
  if (cross(cx, cy, dx, dy, px, py) <= 0 || cross(sx1, sy1, sx2, sy2, qx, qy) <= 0) return false;
  if (e.start[s] !== e.start[t]) return true;
  const ps = e.arc[s] + u * Math.hypot(sx2 - sx1, sy2 - sy1),
    pt = e.arc[t] + f * Math.sqrt(len2);
  let way = Math.abs(ps - pt);
  way = Math.min(way, e.perimeter[s] - way);
  return way > FACING * Math.sqrt(g2);
}
