/**
 * Clipper output to strictly valid footprints.
 *
 * Clipper2 writes valid polygons in its own sense, where rings may touch at a vertex: an outline
 * pinched into two lobes, a hole touching its outline or another hole. Our footprints are simple:
 * no two rings share a point. So a ring that passes a vertex twice is split there (a lobe becomes
 * a polygon of its own, a reversed loop a hole), and where a hole touches another ring at a vertex
 * the hole's corner is chamfered by CHAMFER (2 mm: the hole gives up a triangle of a few mm², far
 * below any tolerance, and nothing else moves).
 *
 * Clipper2 output can also be slightly wrong where it rounds a new vertex onto the grid: a hairline
 * spike crossing itself, a vertex a fraction of a millimetre across another edge. A footprint that
 * is still not simple goes through, in turn: `despike` (outward hairline spikes folded away), an
 * opening by HAIRLINE (slivers thinner than 2 mm removed, checked to remove no more), `unkink`
 * (a vertex moved a millimetre back to its side), and last a Clipper union rebuilt once.
 *
 * Rings are normalised exactly on the millimetre grid first (grid-ring.ts).
 */
import { Clipper, EndType, FillRule, JoinType, type Path64, type Paths64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../types.ts';
import { pointInRing, reverseRing, ringArea, signedArea2 } from '../ring.ts';
import { isSimpleFootprint } from './footprint-repair.ts';
import { ringCentroid } from './polygon-checks.ts';
import { orient, segmentsIntersect } from '../segments.ts';
import { CLIPPER_SCALE, footprintPaths, pathRing } from './clipper-paths.ts';
import { cleanGridRing, normalizeGridFootprint } from './grid-ring.ts';

/** Chamfer of a hole corner that touches another ring, metres. */
export const CHAMFER = 0.002;

/**
 * A vertex as one number: whole millimetres, 26 bits each way (coordinates within ±33 km of the
 * frame origin, far beyond a tile).
 */
const key = (r: Ring, i: number) => (Math.round(r[2 * i] * CLIPPER_SCALE) + 33554432) * 67108864 + (Math.round(r[2 * i + 1] * CLIPPER_SCALE) + 33554432);

/** Splits a ring at every vertex it passes twice into loops without repeated vertices. */
export function splitPinched(ring: Ring): Ring[] {
  const n = ring.length / 2;
  const seen = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const k = key(ring, i);
    const j = seen.get(k);
    if (j !== undefined) {
      const loop = ring.slice(2 * j, 2 * i);
      const rest = ring.slice(0, 2 * j).concat(ring.slice(2 * i));
      return [...splitPinched(loop), ...splitPinched(rest)].filter((r) => r.length >= 6);
    }
    seen.set(k, i);
  }
  return [ring];
}

function chamfer(ring: Ring, i: number): Ring {
  const n = ring.length / 2;
  const p = (i + n - 1) % n,
    q = (i + 1) % n;
  const vx = ring[2 * i],
    vy = ring[2 * i + 1];
  const towards = (j: number): [number, number] => {
    const dx = ring[2 * j] - vx,
      dy = ring[2 * j + 1] - vy;
    const l = Math.hypot(dx, dy);
    const d = Math.min(CHAMFER, l / 3);
    return [Math.round((vx + (dx / l) * d) * 1000) / 1000, Math.round((vy + (dy / l) * d) * 1000) / 1000];
  };
  const a = towards(p),
    b = towards(q);
  return [...ring.slice(0, 2 * i), ...a, ...b, ...ring.slice(2 * i + 2)];
}

/** Spikes and slivers narrower than this are flattened when a ring crosses itself, metres. */
export const SPIKE_WIDTH = 0.002;

/**
 * Drops the tips of spikes — acute left-turning corners whose triangle is thinner than
 * SPIKE_WIDTH — repeatedly, so a hairline spike (Clipper's integer rounding can leave one crossing
 * itself) folds away from its tip; flat corners are kept, they are shared with neighbouring pieces.
 * The ring must have the polygon on its left (outer counter-clockwise, holes clockwise). Only used
 * on rings that are not simple.
 */
export function despike(ring: Ring): Ring {
  const pts = ring.slice();
  let changed = true;
  while (changed && pts.length > 6) {
    changed = false;
    const n = pts.length / 2;
    for (let i = 0; i < n && pts.length > 6; i++) {
      const m = pts.length / 2;
      if (i >= m) break;
      const p = (i + m - 1) % m,
        q = (i + 1) % m;
      const ax = pts[2 * p],
        ay = pts[2 * p + 1],
        bx = pts[2 * i],
        by = pts[2 * i + 1],
        cx = pts[2 * q],
        cy = pts[2 * q + 1];
      // height of the triangle (a, b, c) over its longest side: small for a flat corner and for a spike tip alike
      const l = Math.max(Math.hypot(cx - ax, cy - ay), Math.hypot(bx - ax, by - ay), Math.hypot(cx - bx, cy - by));
      const d = l > 0 ? Math.abs((cx - ax) * (by - ay) - (cy - ay) * (bx - ax)) / l : 0;
      const acute = (ax - bx) * (cx - bx) + (ay - by) * (cy - by) > 0;
      // only left turns: the ring has the polygon on its left, so dropping b removes a sliver of
      // the polygon (a spike) and never adds one (filling a slit would overlap what was cut out)
      const left = (bx - ax) * (cy - by) - (by - ay) * (cx - bx) > 0;
      if (acute && left && d < SPIKE_WIDTH) {
        pts.splice(2 * i, 2);
        changed = true;
      }
    }
  }
  return pts;
}

/** Furthest a vertex is moved to undo a rounding kink, metres. */
export const KINK_REACH = 0.003;

/**
 * Clipper rounds new vertices to the grid, and a vertex a fraction of a millimetre from another
 * edge can land just across it: a real, if microscopic, crossing (or touch). Each such vertex is
 * moved off that edge to its own side (the side of its neighbours), one millimetre clear, a few
 * times over; false when something else is wrong (a vertex further than KINK_REACH across).
 */
export function unkink(fp: Footprint): Footprint | null {
  const rings = [fp.outer, ...fp.holes].map((r) => r.map((v) => Math.round(v * CLIPPER_SCALE)));
  const reach = KINK_REACH * CLIPPER_SCALE;
  for (let round = 0; round < 8; round++) {
    const hit = firstContact(rings);
    if (!hit) {
      const back = rings.map((r) => r.map((v) => v / CLIPPER_SCALE));
      return { outer: back[0], holes: back.slice(1) };
    }
    // of the four endpoints, the one nearest the other segment is the kink
    let best: { ring: number; index: number; seg: [number, number, number, number]; d: number } | null = null;
    for (const [own, other] of [
      [hit.s, hit.t],
      [hit.t, hit.s],
    ] as const) {
      for (const end of [0, 1]) {
        const r = rings[own.ring];
        const n = r.length / 2;
        const index = (own.index + end) % n;
        const px = r[2 * index],
          py = r[2 * index + 1];
        const o = rings[other.ring],
          m = o.length / 2;
        const ax = o[2 * other.index],
          ay = o[2 * other.index + 1],
          bx = o[2 * ((other.index + 1) % m)],
          by = o[2 * ((other.index + 1) % m) + 1];
        const l2 = (bx - ax) ** 2 + (by - ay) ** 2;
        const u = l2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / l2)) : 0;
        const d = Math.hypot(px - ax - u * (bx - ax), py - ay - u * (by - ay)); // to the segment, not its line
        if (!best || d < best.d) best = { ring: own.ring, index, seg: [ax, ay, bx, by], d };
      }
    }
    if (!best || best.d > reach) return null;
    const r = rings[best.ring];
    const n = r.length / 2;
    const [ax, ay, bx, by] = best.seg;
    const l = Math.hypot(bx - ax, by - ay);
    if (l === 0) return null;
    const nx = -(by - ay) / l,
      ny = (bx - ax) / l;
    const p = (best.index + n - 1) % n,
      q = (best.index + 1) % n;
    const mx = (r[2 * p] + r[2 * q]) / 2,
      my = (r[2 * p + 1] + r[2 * q + 1]) / 2;
    const side = Math.sign(orient(ax, ay, bx, by, mx, my)) || 1;
    const px = r[2 * best.index],
      py = r[2 * best.index + 1];
    const signed = orient(ax, ay, bx, by, px, py) / l; // + left of the edge
    const move = side * 1 - signed; // end one unit clear on `side`
    r[2 * best.index] = Math.round(px + nx * (move + side * 0.5));
    r[2 * best.index + 1] = Math.round(py + ny * (move + side * 0.5));
  }
  return null;
}

interface EdgeRef {
  ring: number;
  index: number;
}

/** First pair of non-neighbouring edges that cross or touch, over all rings (integer coordinates). */
function firstContact(rings: number[][]): { s: EdgeRef; t: EdgeRef } | null {
  const edges: { ring: number; index: number; n: number; x1: number; y1: number; x2: number; y2: number }[] = [];
  rings.forEach((r, ring) => {
    const n = r.length / 2;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      edges.push({ ring, index: i, n, x1: r[2 * i], y1: r[2 * i + 1], x2: r[2 * j], y2: r[2 * j + 1] });
    }
  });
  edges.sort((a, b) => Math.min(a.x1, a.x2) - Math.min(b.x1, b.x2));
  for (let i = 0; i < edges.length; i++) {
    const s = edges[i];
    const maxX = Math.max(s.x1, s.x2);
    for (let j = i + 1; j < edges.length && Math.min(edges[j].x1, edges[j].x2) <= maxX; j++) {
      const t = edges[j];
      if (s.ring === t.ring) {
        const d = Math.abs(s.index - t.index);
        if (d === 1 || d === s.n - 1) continue;
      }
      if (segmentsIntersect(s.x1, s.y1, s.x2, s.y2, t.x1, t.y1, t.x2, t.y2)) return { s, t };
    }
  }
  return null;
}

/** Width of the hairline slivers an opening removes from a ring that crosses itself, metres. */
export const HAIRLINE = 0.002;

/**
 * Steps per grid step of the opening's own grid: offset by a single grid step, the corners an
 * opening keeps come back rounded a millimetre or two off (off the edges shared with neighbours).
 */
const OPEN_GRID = 16;

/**
 * The footprint opened by HAIRLINE (shrunk by half of it, grown back, mitred, on a grid
 * OPEN_GRID times finer): slivers thinner than that vanish, everything else keeps its corners.
 * Null unless every result is simple.
 */
function tidyOpened(fp: Footprint): Footprint[] | null {
  // the rings as given, else the area they enclose as Clipper writes it: ClipperOffset takes its
  // lowest ring for an outline, and a hole that a rounding put across its outline can be that ring
  // (the whole footprint then shrinks to nothing)
  const paths = footprintPaths(fp);
  return opened(fp, paths) ?? opened(fp, Clipper.union(paths, FillRule.Positive));
}

function opened(fp: Footprint, paths: Paths64): Footprint[] | null {
  // finer coordinates from the box's corner, so they stay small
  const { left, top } = Clipper.getBoundsPaths(paths); // (top: the least y)
  const fine = paths.map((p) => p.map((q) => ({ x: (q.x - left) * OPEN_GRID, y: (q.y - top) * OPEN_GRID })));
  const d = (HAIRLINE / 2) * CLIPPER_SCALE * OPEN_GRID;
  const grown = Clipper.inflatePaths(Clipper.inflatePaths(fine, -d, JoinType.Miter, EndType.Polygon, 8), d, JoinType.Miter, EndType.Polygon, 8);
  const back = grown.map((p) => p.map((q) => ({ x: left + Math.round(q.x / OPEN_GRID), y: top + Math.round(q.y / OPEN_GRID) })));
  const parts = tidyPaths(Clipper.union(back, FillRule.NonZero), 1);
  if (!parts.every(isSimpleFootprint)) return null;
  // an opening takes hairlines only: anything more means Clipper's offset went wrong (it can drop
  // a polygon whose hole touches its outline)
  let before = ringArea(fp.outer),
    after = 0,
    perimeter = 0;
  for (const h of fp.holes) before -= ringArea(h);
  for (const r of [fp.outer, ...fp.holes])
    for (let i = 0, n = r.length / 2, j = n - 1; i < n; j = i++) perimeter += Math.hypot(r[2 * i] - r[2 * j], r[2 * i + 1] - r[2 * j + 1]);
  for (const p of parts) {
    after += ringArea(p.outer);
    for (const h of p.holes) after -= ringArea(h);
  }
  return Math.abs(before - after) <= HAIRLINE * perimeter ? parts : null;
}

/** True when the grid point lies on an edge of one of the rings (exactly: whole millimetres). */
function onSomeEdge(x: number, y: number, rings: readonly Ring[]): boolean {
  const px = Math.round(x * CLIPPER_SCALE),
    py = Math.round(y * CLIPPER_SCALE);
  for (const r of rings) {
    const n = r.length / 2;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const ax = Math.round(r[2 * j] * CLIPPER_SCALE),
        ay = Math.round(r[2 * j + 1] * CLIPPER_SCALE);
      const bx = Math.round(r[2 * i] * CLIPPER_SCALE),
        by = Math.round(r[2 * i + 1] * CLIPPER_SCALE);
      if (px < Math.min(ax, bx) || px > Math.max(ax, bx) || py < Math.min(ay, by) || py > Math.max(ay, by)) continue;
      if (orient(ax, ay, bx, by, px, py) === 0) return true;
    }
  }
  return false;
}

/**
 * Footprints from outlines (counter-clockwise) and holes (clockwise) given loose, as Clipper
 * writes them: each hole goes to the smallest outline around it — read from the rings themselves,
 * because Clipper's poly tree sometimes leaves a hole that nearly touches its outline at the top
 * level.
 */
export function tidyRings(outerRings: readonly Ring[], holeRings: readonly Ring[], depth = 0): Footprint[] {
  const outers: Ring[] = [];
  const allHoles: Ring[] = [];
  for (const outer of outerRings) {
    for (const loop of splitPinched(outer)) {
      if (signedArea2(loop) > 0) outers.push(loop);
      else if (signedArea2(loop) < 0) allHoles.push(loop);
    }
  }
  for (const h of holeRings) {
    for (const loop of splitPinched(h)) {
      const a = signedArea2(loop);
      if (a !== 0) allHoles.push(a > 0 ? reverseRing(loop) : loop);
    }
  }
  if (outers.length === 1 && allHoles.length === 0) {
    // the common case: one outline, nothing to sort out
    const fp = normalizeGridFootprint({ outer: outers[0], holes: [] });
    if (fp && isSimpleFootprint(fp)) return [fp];
  }
  const groups: { outer: Ring; area: number; holes: Ring[]; keys: Set<number> }[] = outers.map((o) => {
    const keys = new Set<number>();
    for (let i = 0; i < o.length / 2; i++) keys.add(key(o, i));
    return { outer: o, area: signedArea2(o), holes: [], keys };
  });
  for (const h of allHoles) {
    // a vertex of the hole that is not on an outline decides which outline holds it: the smallest around it
    // (its centroid when that lies in the hole: a hole can touch its outline at every vertex)
    let target: (typeof groups)[number] | undefined;
    const probes: [number, number][] = [];
    const [cx, cy] = ringCentroid(h);
    if (pointInRing(cx, cy, h)) probes.push([cx, cy]);
    for (let i = 0; i < h.length / 2; i++) if (!groups.some((g) => g.keys.has(key(h, i)))) probes.push([h[2 * i], h[2 * i + 1]]);
    for (const [x, y] of probes) {
      for (const g of groups) {
        if ((!target || g.area < target.area) && pointInRing(x, y, g.outer)) target = g;
      }
      if (target) break;
    }
    if (!target) continue; // a reversed loop outside every outline encloses nothing
    let ring = h;
    const others = [target.outer, ...target.holes];
    for (let i = ring.length / 2 - 1; i >= 0; i--) {
      if (target.keys.has(key(ring, i)) || onSomeEdge(ring[2 * i], ring[2 * i + 1], others)) ring = chamfer(ring, i);
    }
    for (let i = 0; i < ring.length / 2; i++) target.keys.add(key(ring, i));
    target.holes.push(ring);
  }
  const out: Footprint[] = [];
  for (const g of groups) {
    const fp = normalizeGridFootprint({ outer: g.outer, holes: g.holes });
    if (!fp) continue;
    if (isSimpleFootprint(fp) || depth > 0) {
      out.push(fp);
      continue;
    }
    const thin = normalizeGridFootprint({ outer: despike(fp.outer), holes: fp.holes.map(despike) });
    if (thin && isSimpleFootprint(thin)) {
      out.push(thin);
      continue;
    }
    // hairline slivers (two edges a fraction of a millimetre apart): open by a millimetre
    const opened = tidyOpened(thin ?? fp);
    if (opened) {
      out.push(...opened);
      continue;
    }
    const smooth = thin && unkink(thin);
    const fixed = smooth && normalizeGridFootprint(smooth);
    if (fixed && isSimpleFootprint(fixed)) out.push(fixed);
    else {
      // not expected from Clipper output; rebuild once as the area the rings enclose
      out.push(...tidyPaths(Clipper.union(footprintPaths(fp), FillRule.NonZero), depth + 1));
    }
  }
  return out;
}

/** Footprints of Clipper paths, outlines and holes told apart by orientation (positive = outline). */
export function tidyPaths(paths: readonly Path64[], depth = 0): Footprint[] {
  const outers: Ring[] = [];
  const holes: Ring[] = [];
  for (const p of paths) {
    const a = Clipper.area(p);
    if (a === 0) continue;
    const ring = cleanGridRing(pathRing(p));
    if (ring.length === 0) continue;
    (a > 0 ? outers : holes).push(ring);
  }
  return tidyRings(outers, holes, depth);
}
