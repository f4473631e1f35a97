/**
 * The polygon where road ends meet at a node, and how far each incident strip is trimmed back to
 * it.
 *
 * Arms are sorted counter-clockwise by the direction they leave the node. Between two neighbouring
 * arms lies a gap; its border is the left side line of the first arm and the right side line of
 * the next (each at its own half-width, so roads of different widths meet naturally).
 * - Gap under a half turn: the two side lines cross at X, the inner corner. Each arm is trimmed at
 *   least as far as X lies along it, so nothing of the strip beyond the cut pokes into the other
 *   road. The polygon's border runs from one cut corner to X to the other cut corner.
 * - Gap of a half turn or more (the straight side of a T, the outside of a bend): the side lines
 *   are joined behind the node by a mitre (within MITRE_LIMIT half-widths) or a bevel through the
 *   two side points at the node.
 * - Trims are capped (a share of the segment, and a few road widths), so an acute junction does
 *   not eat a whole short street. Where a cap cuts short, X would lie beyond a cut: the border runs
 *   straight from cut corner to cut corner instead, and what the two strips still share beyond is
 *   resolved later by priority (the "clip the overlap away" step).
 * - A join of two arms of different widths gets both arms trimmed by half a taper length
 *   (TAPER_RATIO × the change of half-width) and straight borders from cut corner to cut corner
 *   (no step): a tapered connector.
 *
 * The polygon is the union of the fan of triangles from the node to consecutive border points and
 * of each arm's strip from the node to its cut (the stubs: they keep a bend within the trimmed
 * length covered; at a join they are only as wide as the narrower side, or they would undo the
 * taper). Each cut edge is computed by `corner` from the segment, exactly like the end of
 * the trimmed strip, so strip and junction share that edge to the millimetre.
 */
import { Clipper, FillRule, type Path64, type Paths64, type Point64 } from 'clipper2-ts';
import { CLIPPER_SCALE } from '../../planar/clipper-paths.ts';
import type { RoadSegment } from './graph.ts';
import { band, corner, MITRE_LIMIT, nudgeCut, pointAt } from './offset.ts';

/** Length of a taper per metre of half-width change (1:5, about 11°: a gentle widening). */
export const TAPER_RATIO = 5;
/** Longest taper, metres. */
export const MAX_TAPER = 20;
/** Longest trim, in widths of the widest arm at the node. */
export const MAX_TRIM_WIDTHS = 3;
/** Half-widths that differ by less than this (metres) need no taper. */
const TAPER_EPS = 0.05;
/** A border from cut corner to cut corner across a gap wider than this is not used (radians). */
const MAX_CHORD_SPAN = (170 * Math.PI) / 180;
/** Fan triangles thinner than this (grid units: 1 cm) are left out. */
const MIN_TRIANGLE_HEIGHT = 0.01 * CLIPPER_SCALE;

export interface JunctionArm {
  seg: RoadSegment;
  /** True when the segment starts at this node. */
  atStart: boolean;
  /** Half-widths on the arm's left and right, looking away from the node. */
  left: number;
  right: number;
  /** Longest trim allowed along this arm, metres. */
  cap: number;
}

export interface JunctionShape {
  /** Where each arm (input order) is cut, as a distance along its segment from the segment's start. */
  cuts: number[];
  /** The node polygon on the millimetre grid (union; empty when it has no area). */
  paths: Paths64;
}

/** Distance along the segment of a point `t` metres from the node along the arm. */
function segmentDistance(arm: JunctionArm, t: number): number {
  return arm.atStart ? t : arm.seg.length - t;
}

/** Signed offsets (way frame) of the arm's left and right sides. */
export function armOffsets(arm: { atStart: boolean; left: number; right: number }): { l: number; r: number } {
  return arm.atStart ? { l: arm.left, r: -arm.right } : { l: -arm.left, r: arm.right };
}

interface Geo {
  dx: number;
  dy: number;
  angle: number;
}

function armDirection(x: number, y: number, arm: JunctionArm): Geo {
  const reach = Math.min(1, arm.seg.length);
  const [px, py] = pointAt(arm.seg, segmentDistance(arm, reach));
  let dx = px - x,
    dy = py - y;
  const l = Math.hypot(dx, dy);
  if (l > 0) {
    dx /= l;
    dy /= l;
  } else {
    const k = arm.atStart ? 0 : arm.seg.len.length - 1;
    const s = arm.atStart ? 1 : -1;
    dx = s * arm.seg.dir[2 * k];
    dy = s * arm.seg.dir[2 * k + 1];
  }
  return { dx, dy, angle: Math.atan2(dy, dx) };
}

/** s and u where left line of arm a (offset la) meets right line of arm b (offset rb); null when parallel. */
function sideCrossing(a: Geo, la: number, b: Geo, rb: number): { s: number; u: number } | null {
  const det = a.dx * b.dy - a.dy * b.dx;
  if (Math.abs(det) < 1e-9) return null;
  // r = -rb·n_b - la·n_a, n = (-dy, dx)
  const rx = rb * b.dy + la * a.dy;
  const ry = -rb * b.dx - la * a.dx;
  return { s: (rx * b.dy - ry * b.dx) / det, u: (rx * a.dy - ry * a.dx) / det };
}

const toGrid = (x: number, y: number): Point64 => ({ x: Math.round(x * CLIPPER_SCALE), y: Math.round(y * CLIPPER_SCALE) });

/**
 * Trims and polygon for arms meeting at (x, y) (see the module comment). Two arms make a join,
 * tapered when their widths differ.
 */
export function junctionShape(x: number, y: number, arms: readonly JunctionArm[]): JunctionShape {
  const k = arms.length;
  const geo = arms.map((a) => armDirection(x, y, a));
  const order = arms.map((_, i) => i).sort((i, j) => geo[i].angle - geo[j].angle || i - j);
  const need = new Float64Array(k);
  let widest = 0;
  for (const a of arms) widest = Math.max(widest, a.left + a.right);

  // taper between the two arms of a join
  let taper = 0;
  if (k === 2) {
    const [i, j] = order;
    const diff = Math.max(Math.abs(arms[i].left - arms[j].right), Math.abs(arms[i].right - arms[j].left));
    if (diff > TAPER_EPS) taper = Math.min(MAX_TAPER, Math.max(1, TAPER_RATIO * diff));
  }
  const limit = MAX_TRIM_WIDTHS * widest + taper / 2;

  // gaps: requirement from the inner corners
  const gap = new Float64Array(k);
  const cross: ({ s: number; u: number } | null)[] = new Array(k).fill(null);
  for (let q = 0; q < k; q++) {
    const i = order[q],
      j = order[(q + 1) % k];
    let g = geo[j].angle - geo[i].angle;
    if (q === k - 1) g += 2 * Math.PI;
    gap[q] = g;
    if (g < Math.PI - 1e-9) {
      const c = sideCrossing(geo[i], arms[i].left, geo[j], arms[j].right);
      if (c) {
        cross[q] = c;
        need[i] = Math.max(need[i], c.s);
        need[j] = Math.max(need[j], c.u);
      }
    }
  }
  const trim = new Float64Array(k);
  const cuts: number[] = new Array(k);
  for (let i = 0; i < k; i++) {
    const t = Math.min(Math.max(need[i], taper / 2, 0), arms[i].cap, limit);
    cuts[i] = nudgeCut(arms[i].seg, segmentDistance(arms[i], t));
    trim[i] = arms[i].atStart ? cuts[i] : arms[i].seg.length - cuts[i];
  }

  const cornerOf = (i: number, side: 'l' | 'r', atNode: boolean): Point64 => {
    const o = armOffsets(arms[i]);
    return corner(arms[i].seg, atNode ? segmentDistance(arms[i], 0) : cuts[i], side === 'l' ? o.l : o.r);
  };

  // border points, counter-clockwise
  const border: Point64[] = [];
  for (let q = 0; q < k; q++) {
    const i = order[q],
      j = order[(q + 1) % k];
    border.push(cornerOf(i, 'r', false), cornerOf(i, 'l', false));
    if (k === 1) break;
    const g = gap[q];
    const c = cross[q];
    if (g < Math.PI - 1e-9) {
      if (c && c.s <= trim[i] + 1e-6 && c.u <= trim[j] + 1e-6 && Math.max(c.s, c.u) <= limit) {
        border.push(toGrid(x + c.s * geo[i].dx - arms[i].left * geo[i].dy, y + c.s * geo[i].dy + arms[i].left * geo[i].dx));
      }
      continue; // else: straight from cut corner to cut corner
    }
    if (taper > 0) {
      const a = cornerOf(i, 'l', false),
        b = cornerOf(j, 'r', false);
      let span = Math.atan2(b.y - y * CLIPPER_SCALE, b.x - x * CLIPPER_SCALE) - Math.atan2(a.y - y * CLIPPER_SCALE, a.x - x * CLIPPER_SCALE);
      while (span < 0) span += 2 * Math.PI;
      if (span < MAX_CHORD_SPAN) continue;
    }
    const m = g > Math.PI + 1e-9 ? sideCrossing(geo[i], arms[i].left, geo[j], arms[j].right) : null;
    if (m) {
      const mx = m.s * geo[i].dx - arms[i].left * geo[i].dy,
        my = m.s * geo[i].dy + arms[i].left * geo[i].dx;
      if (Math.hypot(mx, my) <= MITRE_LIMIT * Math.max(arms[i].left, arms[j].right)) {
        border.push(toGrid(x + mx, y + my));
        continue;
      }
    }
    border.push(cornerOf(i, 'l', true), cornerOf(j, 'r', true));
  }

  const px = Math.round(x * CLIPPER_SCALE),
    py = Math.round(y * CLIPPER_SCALE);
  const pieces: Paths64 = [];
  for (let q = 0; q < border.length; q++) {
    const a = border[q],
      b = border[(q + 1) % border.length];
    // counter-clockwise triangles only, and none thinner than a centimetre (they add nothing but spikes)
    const area2 = (a.x - px) * (b.y - py) - (a.y - py) * (b.x - px);
    const longest = Math.max(Math.hypot(a.x - px, a.y - py), Math.hypot(b.x - px, b.y - py), Math.hypot(b.x - a.x, b.y - a.y));
    if (area2 > 0 && area2 / longest >= MIN_TRIANGLE_HEIGHT) pieces.push([{ x: px, y: py }, a, b] as Path64);
  }
  // stubs: full width at a junction; at a join only as wide as the narrower side, so a taper stays a taper
  let narrow = Infinity;
  if (k === 2) for (const a of arms) narrow = Math.min(narrow, a.left, a.right);
  for (let i = 0; i < k; i++) {
    if (trim[i] <= 1e-6) continue;
    const o = armOffsets(arms[i]);
    const lo = Math.max(Math.min(o.l, o.r), -narrow),
      hi = Math.min(Math.max(o.l, o.r), narrow);
    const a = arms[i].atStart ? 0 : cuts[i],
      b = arms[i].atStart ? cuts[i] : arms[i].seg.length;
    for (const p of band(arms[i].seg, a, b, lo, hi).paths) pieces.push(p);
  }
  const paths = pieces.length === 0 ? [] : Clipper.union(pieces, FillRule.NonZero);
  return { cuts, paths };
}
