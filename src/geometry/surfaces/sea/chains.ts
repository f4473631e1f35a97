import type { BBox } from '../../types.ts';

/**
 * Coastline ways joined into chains (src/geometry/surfaces/sea): OSM draws the coast as many
 * `natural=coastline` ways, each ending where the next begins, land on the LEFT of the way's
 * direction and water on the RIGHT.
 */

/** One `natural=coastline` way in the local frame, in the direction OSM draws it. */
export interface Coastline {
  /** OSM id (`way/123`). */
  id: string;
  /** Flat local [x0, y0, x1, y1, …]; a closed way repeats its first point at the end (or not). */
  points: number[];
}

/** Ways joined end to start: one open polyline or one closed ring, land on the left. */
export interface CoastChain {
  /** Flat [x0, y0, …]; a closed chain without the closing duplicate. */
  points: number[];
  closed: boolean;
  /**
   * Per segment (points i → i+1; for a closed chain the last one is last → first): the id of the
   * way it comes from, or null for a segment added by `extendOpenEnds` (no mapped coast).
   */
  segmentIds: (string | null)[];
}

/** Consecutive points closer than this (m) inside one way are merged. */
const SAME_POINT = 1e-6;

/** A way's points without non-finite or repeated vertices. */
function cleanWay(points: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i],
      y = points[i + 1];
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    const m = out.length;
    if (m >= 2 && Math.hypot(x - out[m - 2], y - out[m - 1]) <= SAME_POINT) continue;
    out.push(x, y);
  }
  return out;
}

/**
 * Joins coastline ways into chains: a way whose first point lies within `snap` (1 cm) of another
 * way's last point continues it (the joint takes the earlier way's point, moving the next way's
 * first vertex by less than `snap`); a chain whose end comes back within `snap` of its start is
 * closed. Where several ways could continue one (broken data), the nearest start wins, then the
 * lowest id, so the chains never depend on the order of the input. Ways are never reversed: a
 * way meeting another end to end is drawn the wrong way round, and both stay open ends.
 * Repeated ids are read once.
 */
export function joinCoastlines(coastlines: readonly Coastline[], snap = 0.01): CoastChain[] {
  const seen = new Set<string>();
  const ways: { id: string; points: number[] }[] = [];
  for (const c of coastlines) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    const points = cleanWay(c.points);
    if (points.length >= 4) ways.push({ id: c.id, points });
  }
  ways.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  const chains: CoastChain[] = [];
  const open: number[] = [];
  ways.forEach((w, i) => {
    const p = w.points,
      n = p.length;
    const closes = Math.hypot(p[0] - p[n - 2], p[1] - p[n - 1]) <= snap;
    if (closes && n >= 8) {
      const ring = p.slice(0, n - 2);
      ring[0] = p[n - 2];
      ring[1] = p[n - 1]; // the joint keeps the end's point, as between ways
      if (ring.length >= 6) chains.push({ points: ring, closed: true, segmentIds: new Array(ring.length / 2).fill(w.id) });
    } else if (!closes) {
      open.push(i);
    }
  });

  // Starts of the open ways on a grid of `snap` cells, for the join.
  const cell = Math.max(snap, 1e-9);
  const key = (x: number, y: number) => `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
  const starts = new Map<string, number[]>();
  for (const i of open) {
    const k = key(ways[i].points[0], ways[i].points[1]);
    const list = starts.get(k);
    if (list) list.push(i);
    else starts.set(k, [i]);
  }
  const next = new Map<number, number>();
  const hasPrevious = new Set<number>();
  for (const i of open) {
    const p = ways[i].points,
      ex = p[p.length - 2],
      ey = p[p.length - 1];
    const cx = Math.floor(ex / cell),
      cy = Math.floor(ey / cell);
    let best = -1,
      bestDistance = Infinity;
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const j of starts.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (j === i || hasPrevious.has(j)) continue;
          const d = Math.hypot(ways[j].points[0] - ex, ways[j].points[1] - ey);
          if (d <= snap && (d < bestDistance || (d === bestDistance && j < best))) {
            best = j;
            bestDistance = d;
          }
        }
      }
    }
    if (best >= 0) {
      next.set(i, best);
      hasPrevious.add(best);
    }
  }

  const used = new Set<number>();
  const follow = (first: number): CoastChain => {
    const points: number[] = [];
    const segmentIds: (string | null)[] = [];
    let i: number | undefined = first;
    let closed = false;
    while (i !== undefined) {
      used.add(i);
      const w = ways[i];
      const from = points.length === 0 ? 0 : 2; // the joint keeps the earlier way's point
      for (let k = from; k < w.points.length; k += 2) points.push(w.points[k], w.points[k + 1]);
      for (let k = 0; k < w.points.length / 2 - 1; k++) segmentIds.push(w.id);
      i = next.get(i);
      if (i === first) {
        closed = true;
        break;
      }
      if (i !== undefined && used.has(i)) break;
    }
    if (closed) {
      // The last point is (within snap) the first: like every joint, it keeps the earlier way's
      // point (the last way's end); the closing segment keeps the last way's id.
      points[0] = points[points.length - 2];
      points[1] = points[points.length - 1];
      points.length -= 2;
    }
    return { points, closed, segmentIds };
  };
  for (const i of open) if (!hasPrevious.has(i) && !used.has(i)) chains.push(follow(i));
  for (const i of open) if (!used.has(i)) chains.push(follow(i)); // cycles of open ways
  return chains.filter((c) => c.points.length >= (c.closed ? 6 : 4));
}

/**
 * How far along the chain an open end's direction is measured (m), longest first: a last short
 * segment, or a small hook at the end, would point anywhere.
 */
const DIRECTION_BASES = [100, 30, 10, 0];

/**
 * Extends every open chain straight on at both ends by `length` metres: a coastline that ends is
 * one the extract cut (or whose continuation the caller did not read), and the best guess of where
 * it goes is on. The direction is that of the chord over the chain's last (first) 100 m; when the
 * extension would cross mapped coastline, shorter chords are tried (30 m, 10 m, the end segment),
 * and when every one crosses, the first is kept (the faces it makes contradict the coast and are
 * left land). When the extension would end inside `box`, it goes on until it leaves the box, so
 * that every open chain crosses the box from edge to edge. Added segments have a null id.
 *
 * Keep `length` at most the margin the caller reads around the box: a way whose continuation was
 * not read ends farther than that margin from the box, so its extension cannot reach the box.
 */
export function extendOpenEnds(chains: readonly CoastChain[], box: BBox, length: number): CoastChain[] {
  return chains.map(extendChain, { box, length, chains });
}

/** `chains.map` with a module-level callback (its `this` the arguments): a closure made per call loses its optimised code at every full collection. */
function extendChain(this: { box: BBox; length: number; chains: readonly CoastChain[] }, c: CoastChain): CoastChain {
  if (c.closed) return c;
  const { box, length, chains } = this;
  const p = c.points,
    n = p.length / 2;
  const end = extension(p, n - 1, -1, box, length, chains);
  const start = extension(p, 0, 1, box, length, chains);
  if (!end && !start) return c;
  const points = [...(start ?? []), ...p, ...(end ?? [])];
  const segmentIds = [...(start ? [null] : []), ...c.segmentIds, ...(end ? [null] : [])];
  return { points, closed: false, segmentIds };
}

/** The point that extends the chain at vertex `at` (its first or last), looking back in `step` direction. */
function extension(p: readonly number[], at: number, step: 1 | -1, box: BBox, length: number, chains: readonly CoastChain[]): [number, number] | null {
  if (length <= 0) return null;
  const ex = p[2 * at],
    ey = p[2 * at + 1];
  let first: [number, number] | null = null;
  for (const base of DIRECTION_BASES) {
    const u = direction(p, at, step, base);
    if (!u) continue;
    let t = length;
    const inside = rayInBox(ex, ey, u[0], u[1], box);
    if (inside && t >= inside[0] && t <= inside[1]) t = inside[1] + 1;
    const point: [number, number] = [ex + u[0] * t, ey + u[1] * t];
    first ??= point;
    if (!crossesCoast(ex, ey, point[0], point[1], chains)) return point;
  }
  return first;
}

/** Unit direction from the point `base` metres along the chain (from vertex `at`, walking `step`) to vertex `at`. */
function direction(p: readonly number[], at: number, step: 1 | -1, base: number): [number, number] | null {
  const n = p.length / 2;
  const ex = p[2 * at],
    ey = p[2 * at + 1];
  let walked = 0,
    bx = ex,
    by = ey;
  for (let k = at + step; k >= 0 && k < n; k += step) {
    const px = p[2 * (k - step)],
      py = p[2 * (k - step) + 1];
    bx = p[2 * k];
    by = p[2 * k + 1];
    walked += Math.hypot(bx - px, by - py);
    if (walked >= base) break;
  }
  const d = Math.hypot(ex - bx, ey - by);
  return d > 0 ? [(ex - bx) / d, (ey - by) / d] : null;
}

/** Whether segment a→b crosses a mapped segment of any chain (touching at a's end does not count). */
function crossesCoast(ax: number, ay: number, bx: number, by: number, chains: readonly CoastChain[]): boolean {
  const minX = Math.min(ax, bx),
    maxX = Math.max(ax, bx),
    minY = Math.min(ay, by),
    maxY = Math.max(ay, by);
  for (const c of chains) {
    const p = c.points,
      n = p.length / 2;
    for (let s = 0; s < (c.closed ? n : n - 1); s++) {
      const e = (s + 1) % n;
      const cx = p[2 * s],
        cy = p[2 * s + 1],
        dx = p[2 * e],
        dy = p[2 * e + 1];
      if (Math.max(cx, dx) < minX || Math.min(cx, dx) > maxX || Math.max(cy, dy) < minY || Math.min(cy, dy) > maxY) continue;
      const d1 = orient(cx, cy, dx, dy, ax, ay),
        d2 = orient(cx, cy, dx, dy, bx, by);
      const d3 = orient(ax, ay, bx, by, cx, cy),
        d4 = orient(ax, ay, bx, by, dx, dy);
      if (d1 === 0) continue; // a segment through the end itself (the chain's own end)
      if (d1 * d2 <= 0 && d3 * d4 < 0) return true;
    }
  }
  return false;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}

/** Parameters [tIn, tOut] (tOut ≥ 0) of the ray x + t·u inside the box, or null. */
function rayInBox(x: number, y: number, ux: number, uy: number, box: BBox): [number, number] | null {
  let t0 = 0,
    t1 = Infinity;
  const axes: [number, number, number, number][] = [
    [x, ux, box.minX, box.maxX],
    [y, uy, box.minY, box.maxY],
  ];
  for (const [o, u, lo, hi] of axes) {
    if (u === 0) {
      if (o < lo || o > hi) return null;
      continue;
    }
    let a = (lo - o) / u,
      b = (hi - o) / u;
    if (a > b) [a, b] = [b, a];
    t0 = Math.max(t0, a);
    t1 = Math.min(t1, b);
  }
  return t1 >= t0 ? [t0, t1] : null;
}
