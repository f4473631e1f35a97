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
  const ea = sides(a), eb = sides(b);
  const na = ea.length / 4, nb = eb.length / 4;
  if (na === 0 || nb === 0) return true;
  if (na * nb > MAX_PAIRS) return false;
  // splits[i]: positions along side i (0…1) where a corner of the other set lies on it
  const splitsA: number[][] = new Array(na), splitsB: number[][] = new Array(nb);
  for (let i = 0; i < na; i++) {
    const ax = ea[4 * i], ay = ea[4 * i + 1], bx = ea[4 * i + 2], by = ea[4 * i + 3];
    const minX = Math.min(ax, bx), maxX = Math.max(ax, bx), minY = Math.min(ay, by), maxY = Math.max(ay, by);
    for (let j = 0; j < nb; j++) {
      const cx = eb[4 * j], cy = eb[4 * j + 1], dx = eb[4 * j + 2], dy = eb[4 * j + 3];
      if (Math.max(cx, dx) < minX || Math.min(cx, dx) > maxX || Math.max(cy, dy) < minY || Math.min(cy, dy) > maxY) continue;
      const o1 = orient(cx, cy, dx, dy, ax, ay), o2 = orient(cx, cy, dx, dy, bx, by);
      const o3 = orient(ax, ay, bx, by, cx, cy), o4 = orient(ax, ay, bx, by, dx, dy);
      if (((o1 < 0 && o2 > 0) || (o1 > 0 && o2 < 0)) && ((o3 < 0 && o4 > 0) || (o3 > 0 && o4 < 0))) return false;
      if (o1 === 0) addSplit(splitsB, j, cx, cy, dx, dy, ax, ay);
      if (o2 === 0) addSplit(splitsB, j, cx, cy, dx, dy, bx, by);
      if (o3 === 0) addSplit(splitsA, i, ax, ay, bx, by, cx, cy);
      if (o4 === 0) addSplit(splitsA, i, ax, ay, bx, by, dx, dy);
    }
  }
  const onA = runs(eb, splitsB, ea);
  if (onA < 0) return false;
  const onB = runs(ea, splitsA, eb);
  if (onB < 0) return false;
  // a boundary lying wholly on the other (the same polygon twice, say): cannot tell cheaply
  return onA === 0 && onB === 0;
}

/** Pairs of sides beyond which the test gives up (a Clipper sweep is then no dearer). */
const MAX_PAIRS = 40000;

function sides(paths: Paths64): number[] {
  const out: number[] = [];
  for (const p of paths) {
    const n = p.length;
    if (n < 3) continue;
    for (let i = 0; i < n; i++) {
      const q = p[i], r = p[i + 1 < n ? i + 1 : 0];
      if (q.x !== r.x || q.y !== r.y) out.push(q.x, q.y, r.x, r.y);
    }
  }
  return out;
}

function orient(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/** Records where (px, py), collinear with side i = a→b, lies strictly inside it. */
function addSplit(splits: number[][], i: number, ax: number, ay: number, bx: number, by: number, px: number, py: number): void {
  const dx = bx - ax, dy = by - ay;
  const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
  if (!(t > 0 && t < 1)) return;
  (splits[i] ??= []).push(t);
}

/**
 * Every piece of the sides `e` (split at `splits`) against the other set's sides `other`: −1 as
 * soon as one runs inside it; else 0 when some piece runs outside, 1 when all lie on its boundary.
 */
function runs(e: number[], splits: number[][], other: number[]): number {
  let allOn = 1;
  for (let i = 0; i < e.length / 4; i++) {
    const ax = e[4 * i], ay = e[4 * i + 1], dx = e[4 * i + 2] - ax, dy = e[4 * i + 3] - ay;
    const s = splits[i];
    if (s) s.sort(ascending);
    let t0 = 0;
    for (let k = 0; k <= (s ? s.length : 0); k++) {
      const t1 = s && k < s.length ? s[k] : 1;
      if (t1 <= t0) continue;
      const t = (t0 + t1) / 2;
      const place = classify(ax + t * dx, ay + t * dy, other);
      if (place > 0) return -1;
      if (place < 0) allOn = 0;
      t0 = t1;
    }
  }
  return allOn;
}

function ascending(p: number, q: number): number {
  return p - q;
}

/** A point this close (grid units, about) to a side lies on it: the split points are not on the grid. */
const ON = 1e-6;

/** 1 inside the sides' set (NonZero), 0 on one of its sides, −1 outside. */
function classify(x: number, y: number, e: number[]): number {
  let winding = 0;
  for (let i = 0; i < e.length; i += 4) {
    const ax = e[i], ay = e[i + 1], bx = e[i + 2], by = e[i + 3];
    const o = orient(ax, ay, bx, by, x, y);
    if (Math.abs(o) <= ON * (Math.abs(bx - ax) + Math.abs(by - ay)) && x >= Math.min(ax, bx) && x <= Math.max(ax, bx) && y >= Math.min(ay, by) && y <= Math.max(ay, by)) return 0;
    if (ay <= y) { if (by > y && o > 0) winding++; } else if (by <= y && o < 0) winding--;
  }
  return winding !== 0 ? 1 : -1;
}
