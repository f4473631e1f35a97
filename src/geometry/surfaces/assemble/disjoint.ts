import type { Paths64 } from 'clipper2-ts';

/**
 * Whether two sets of paths (each read by the NonZero rule, on the integer grid) certainly have no
 * inside in common — they may touch along sides or at corners. A cheap test run before a Clipper
 * difference: a cutter whose box overlaps an area's but which only touches it (the neighbouring
 * strip of the same road, a building beside a pavement) is left out of the sweep, and an area no
 * cutter overlaps keeps its mapped footprint without one.
 *
 * Conservative: false whenever it cannot tell (sides crossing, a side running inside the other
 * set, boundaries that coincide everywhere, or more than MAX_PAIRS pairs of sides to look at).
 *
 * How: with no two sides crossing properly, every side split at the other set's corners lying on
 * it runs wholly inside, on the boundary of, or outside the other set; the insides overlap exactly
 * when a piece of one boundary runs inside the other, or when one boundary lies wholly on the other.
 */
export function interiorsDisjoint(a: Paths64, b: Paths64): boolean {
  const na = sides(a, A),
    nb = sides(b, B);
  if (na === 0 || nb === 0) return true;
  if (na * nb > MAX_PAIRS) return false;
  const ea = A.xy,
    eb = B.xy;
  // the boxes of the two sets must overlap for anything to happen
  if (A.maxX < B.minX || B.maxX < A.minX || A.maxY < B.minY || B.maxY < A.minY) return true;
  // splits: (side, position 0…1) where a corner of the other set lies on the side
  splitsA.length = 0;
  splitsB.length = 0;
  for (let i = 0; i < na; i++) {
    const ax = ea[4 * i],
      ay = ea[4 * i + 1],
      bx = ea[4 * i + 2],
      by = ea[4 * i + 3];
    const minX = Math.min(ax, bx),
      maxX = Math.max(ax, bx),
      minY = Math.min(ay, by),
      maxY = Math.max(ay, by);
    if (maxX < B.minX || minX > B.maxX || maxY < B.minY || minY > B.maxY) continue;
    for (let j = 0; j < nb; j++) {
      const cx = eb[4 * j],
        cy = eb[4 * j + 1],
        dx = eb[4 * j + 2],
        dy = eb[4 * j + 3];
      if ((cx < minX && dx < minX) || (cx > maxX && dx > maxX) || (cy < minY && dy < minY) || (cy > maxY && dy > maxY)) continue;
      const o1 = orient(cx, cy, dx, dy, ax, ay),
        o2 = orient(cx, cy, dx, dy, bx, by);
      const o3 = orient(ax, ay, bx, by, cx, cy),
        o4 = orient(ax, ay, bx, by, dx, dy);
      if (((o1 < 0 && o2 > 0) || (o1 > 0 && o2 < 0)) && ((o3 < 0 && o4 > 0) || (o3 > 0 && o4 < 0))) return false;
      if (o1 === 0) addSplit(splitsB, j, cx, cy, dx, dy, ax, ay);
      if (o2 === 0) addSplit(splitsB, j, cx, cy, dx, dy, bx, by);
      if (o3 === 0) addSplit(splitsA, i, ax, ay, bx, by, cx, cy);
      if (o4 === 0) addSplit(splitsA, i, ax, ay, bx, by, dx, dy);
    }
  }
  const onA = runs(eb, nb, splitsB, ea, na, A);
  if (onA < 0) return false;
  const onB = runs(ea, na, splitsA, eb, nb, B);
  if (onB < 0) return false;
  // a boundary lying wholly on the other (the same polygon twice, say): cannot tell cheaply
  return onA === 0 && onB === 0;
}

/** Pairs of sides beyond which the test gives up (a Clipper sweep is then no dearer). */
const MAX_PAIRS = 40000;

interface SideSet {
  xy: Float64Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

const A: SideSet = { xy: new Float64Array(1024), minX: 0, minY: 0, maxX: 0, maxY: 0 };
const B: SideSet = { xy: new Float64Array(1024), minX: 0, minY: 0, maxX: 0, maxY: 0 };
const splitsA: number[] = [],
  splitsB: number[] = [];

/** Fills the set with the paths' sides (x1, y1, x2, y2; zero-length ones left out) and their box; returns how many. */
function sides(paths: Paths64, set: SideSet): number {
  let total = 0;
  for (const p of paths) total += p.length;
  if (set.xy.length < 4 * total) set.xy = new Float64Array(8 * total);
  const xy = set.xy;
  let n = 0,
    minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const p of paths) {
    const m = p.length;
    if (m < 3) continue;
    for (let i = 0; i < m; i++) {
      const q = p[i],
        r = p[i + 1 < m ? i + 1 : 0];
      if (q.x < minX) minX = q.x;
      if (q.x > maxX) maxX = q.x;
      if (q.y < minY) minY = q.y;
      if (q.y > maxY) maxY = q.y;
      if (q.x === r.x && q.y === r.y) continue;
      xy[4 * n] = q.x;
      xy[4 * n + 1] = q.y;
      xy[4 * n + 2] = r.x;
      xy[4 * n + 3] = r.y;
      n++;
    }
  }
  set.minX = minX;
  set.minY = minY;
  set.maxX = maxX;
  set.maxY = maxY;
  return n;
}

function orient(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/** Records (side i, position) where (px, py), collinear with side i = a→b, lies strictly inside it. */
function addSplit(splits: number[], i: number, ax: number, ay: number, bx: number, by: number, px: number, py: number): void {
  const dx = bx - ax,
    dy = by - ay;
  const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
  if (t > 0 && t < 1) splits.push(i, t);
}

/**
 * Every piece of the sides `e` (split at `splits`) against the other set: −1 as soon as one runs
 * inside it; else 0 when some piece runs outside, 1 when all lie on its boundary.
 */
function runs(e: Float64Array, n: number, splits: number[], other: Float64Array, m: number, box: SideSet): number {
  let allOn = 1;
  for (let i = 0; i < n; i++) {
    const ax = e[4 * i],
      ay = e[4 * i + 1],
      dx = e[4 * i + 2] - ax,
      dy = e[4 * i + 3] - ay;
    // positions where this side is split (few: a linear scan of the flat list)
    let t0 = 0;
    for (;;) {
      let t1 = 1;
      for (let k = 0; k < splits.length; k += 2) if (splits[k] === i && splits[k + 1] > t0 && splits[k + 1] < t1) t1 = splits[k + 1];
      const t = (t0 + t1) / 2;
      const place = classify(ax + t * dx, ay + t * dy, other, m, box);
      if (place > 0) return -1;
      if (place < 0) allOn = 0;
      if (t1 >= 1) break;
      t0 = t1;
    }
  }
  return allOn;
}

/** A point this close (grid units, about) to a side lies on it: the split points are not on the grid. */
const ON = 1e-6;

/** 1 inside the sides' set (NonZero), 0 on one of its sides, −1 outside. */
function classify(x: number, y: number, e: Float64Array, m: number, box: SideSet): number {
  if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY) return -1;
  let winding = 0;
  for (let i = 0; i < 4 * m; i += 4) {
    const ax = e[i],
      ay = e[i + 1],
      bx = e[i + 2],
      by = e[i + 3];
    if ((ay > y && by > y) || (ay < y && by < y)) {
      // cannot contain the point nor cross its horizontal ray... unless on it: only if the point is between in y
      continue;
    }
    const o = orient(ax, ay, bx, by, x, y);
    if (
      Math.abs(o) <= ON * (Math.abs(bx - ax) + Math.abs(by - ay)) &&
      x >= Math.min(ax, bx) &&
      x <= Math.max(ax, bx) &&
      y >= Math.min(ay, by) &&
      y <= Math.max(ay, by)
    )
      return 0;
    if (ay <= y) {
      if (by > y && o > 0) winding++;
    } else if (by <= y && o < 0) winding--;
  }
  return winding !== 0 ? 1 : -1;
}
