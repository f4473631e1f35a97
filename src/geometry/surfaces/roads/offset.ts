/**
 * Strips along a segment: the band between two signed offsets of its axis (left of the drawing
 * direction positive), from distance `a` to distance `b` along it, as a Clipper path on the
 * millimetre grid. A carriageway is the band [-right half, +left half], a left sidewalk
 * [left half, left half + sidewalk].
 *
 * Why not Clipper's own inflatePaths: a strip that ends at a junction must share its end edge
 * with the junction polygon exactly, and a carriageway must share its side with its sidewalk
 * exactly. So every point here is computed from the segment's own vertices and edge directions by
 * one function per kind of point (`corner` for the ends, `chain` joins for the vertices): the
 * junction, the strip and the sidewalk get the same numbers and so the same millimetres.
 *
 * Joins: an outer corner is mitred while the mitre is at most MITRE_LIMIT half-widths long, else
 * bevelled with one extra point on the bisector (a hairpin gets a blunt nose, not a spike). An
 * inner corner takes the intersection of the two offset lines when it lies on both edges;
 * otherwise (tight bends with short edges, hairpins) it goes through the axis vertex as Clipper
 * does, which draws small reversed loops, and the band is marked dirty: dirty bands are united with
 * the Positive fill rule, which keeps exactly the area the road covers, and so are bands that turn
 * by more than a half turn (they may overlap themselves). Ends are butt ends, square to the edge.
 */
import { Clipper, FillRule, type Path64, type Paths64, type Point64 } from 'clipper2-ts';
import { CLIPPER_SCALE } from '../../planar/clipper-paths.ts';
import type { RoadSegment } from './graph.ts';

/** Longest mitre, in half-widths, before a corner is bevelled. */
export const MITRE_LIMIT = 2;

/** Index of the edge that holds distance t (the last edge whose start is at or before t). */
export function edgeAt(seg: RoadSegment, t: number): number {
  const edges = seg.len.length;
  let lo = 0,
    hi = edges - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (seg.cum[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The axis point at distance t. */
export function pointAt(seg: RoadSegment, t: number): [number, number] {
  const k = edgeAt(seg, t);
  const u = t - seg.cum[k];
  return [seg.pts[2 * k] + u * seg.dir[2 * k], seg.pts[2 * k + 1] + u * seg.dir[2 * k + 1]];
}

/** The point at signed offset o (left positive), square to the edge at distance t, on the grid. */
export function corner(seg: RoadSegment, t: number, o: number): Point64 {
  const k = edgeAt(seg, t);
  const u = t - seg.cum[k];
  const dx = seg.dir[2 * k],
    dy = seg.dir[2 * k + 1];
  const x = seg.pts[2 * k] + u * dx - o * dy;
  const y = seg.pts[2 * k + 1] + u * dy + o * dx;
  return { x: Math.round(x * CLIPPER_SCALE), y: Math.round(y * CLIPPER_SCALE) };
}

/** Smallest distance a cut keeps from an interior vertex, metres. */
const VERTEX_CLEARANCE = 0.002;

/**
 * Moves a cut off interior vertices, so that the cut lies inside one edge and is square to it for
 * the pieces on both sides (a cut exactly on a bend would be square to one edge and skewed to the
 * other).
 */
export function nudgeCut(seg: RoadSegment, t: number): number {
  if (t <= 0) return 0;
  if (t >= seg.length) return seg.length;
  const k = edgeAt(seg, t);
  const edges = seg.len.length;
  const room = Math.min(VERTEX_CLEARANCE, seg.len[k] / 3);
  if (k > 0 && t - seg.cum[k] < room) return seg.cum[k] + room;
  if (k < edges - 1 && seg.cum[k + 1] - t < room) return seg.cum[k + 1] - room;
  return t;
}

const grid = (v: number) => Math.round(v * CLIPPER_SCALE);

interface ChainResult {
  dirty: boolean;
}

/** Turn at vertex j between edges e1 and e2: cross and dot of their directions. */
function turnAt(dir: Float64Array, e1: number, e2: number): [number, number] {
  return [dir[2 * e1] * dir[2 * e2 + 1] - dir[2 * e1 + 1] * dir[2 * e2], dir[2 * e1] * dir[2 * e2] + dir[2 * e1 + 1] * dir[2 * e2 + 1]];
}

/**
 * How far an inner mitre at vertex j reaches back along each of its edges (0 for an outer corner
 * or an end of an open segment).
 */
function consumption(seg: RoadSegment, j: number, o: number): number {
  const edges = seg.len.length;
  const n = seg.pts.length / 2;
  if (!seg.ring && (j <= 0 || j >= n - 1)) return 0;
  const e1 = seg.ring ? (j + edges - 1) % edges : j - 1,
    e2 = seg.ring ? j % edges : j;
  const [c, d] = turnAt(seg.dir, e1, e2);
  if (!(o * c > 0) || Math.abs(c) < 1e-12) return 0;
  return 1 + d < 1e-12 ? Infinity : (Math.abs(o) * Math.abs(c)) / (1 + d);
}

/**
 * Offset points at signed offset o for the vertices strictly between distances a and b (open) or
 * all vertices (ring), appended to `out`. Whether an inner corner is mitred depends only on the
 * whole segment and the offset, never on a and b, so every piece cut from one segment (the strip,
 * its sidewalks, a junction stub) draws a shared side with the same points. A mitre that reaches
 * back past a cut makes the band dirty (cleaned by the caller).
 */
function chain(seg: RoadSegment, a: number, b: number, o: number, out: Path64, ring: boolean): ChainResult {
  const { pts, dir, len, cum } = seg;
  const edges = len.length;
  const n = pts.length / 2;
  let first: number, last: number; // vertex range
  if (ring) {
    first = 0;
    last = n - 1;
  } else {
    first = edgeAt(seg, a) + 1;
    last = edgeAt(seg, b);
  }
  const count = last - first + 1;
  if (count <= 0) return { dirty: false };
  let turning = 0;
  let dirty = false;
  for (let i = 0; i < count; i++) {
    const j = first + i;
    const e1 = ring ? (j + edges - 1) % edges : j - 1,
      e2 = j;
    const [c, d] = turnAt(dir, e1, e2);
    turning += Math.abs(Math.atan2(c, d));
    const vx = pts[2 * j],
      vy = pts[2 * j + 1];
    const n1x = -dir[2 * e1 + 1],
      n1y = dir[2 * e1];
    const n2x = -dir[2 * e2 + 1],
      n2y = dir[2 * e2];
    if (Math.abs(c) < 1e-12 && d > 0) {
      out.push({ x: grid(vx + o * n1x), y: grid(vy + o * n1y) });
      continue;
    }
    if (o * c > 0) {
      // inner corner: mitre when it stays on both whole edges, next to the neighbours' mitres
      const s = consumption(seg, j, o);
      const prev = consumption(seg, ring ? (j + n - 1) % n : j - 1, o);
      const next = consumption(seg, ring ? (j + 1) % n : j + 1, o);
      if (s + prev <= len[e1] && s + next <= len[e2]) {
        if (!ring && (s > cum[j] - a || s > b - cum[j])) dirty = true;
        const k = o / (1 + d);
        out.push({ x: grid(vx + k * (n1x + n2x)), y: grid(vy + k * (n1y + n2y)) });
      } else {
        dirty = true;
        out.push({ x: grid(vx + o * n1x), y: grid(vy + o * n1y) }, { x: grid(vx), y: grid(vy) }, { x: grid(vx + o * n2x), y: grid(vy + o * n2y) });
      }
      continue;
    }
    if (o === 0) {
      out.push({ x: grid(vx), y: grid(vy) });
      continue;
    }
    // outer corner: mitre within the limit, else bevel through a point on the bisector
    if (1 + d > 2 / (MITRE_LIMIT * MITRE_LIMIT)) {
      const k = o / (1 + d);
      out.push({ x: grid(vx + k * (n1x + n2x)), y: grid(vy + k * (n1y + n2y)) });
    } else {
      let bx = dir[2 * e1] - dir[2 * e2],
        by = dir[2 * e1 + 1] - dir[2 * e2 + 1];
      const bl = Math.hypot(bx, by);
      bx /= bl;
      by /= bl;
      const r = Math.abs(o);
      out.push(
        { x: grid(vx + o * n1x), y: grid(vy + o * n1y) },
        { x: grid(vx + r * bx), y: grid(vy + r * by) },
        { x: grid(vx + o * n2x), y: grid(vy + o * n2y) },
      );
    }
  }
  return { dirty: dirty || turning > Math.PI };
}

export interface Band {
  /** Positive (counter-clockwise) outline, or several paths after cleaning (holes negative). */
  paths: Paths64;
  /** True when `paths` is one simple counter-clockwise ring (no cleaning was needed). */
  simple: boolean;
}

/** The band between signed offsets lo < hi from distance a to b (0 ≤ a < b ≤ length). */
export function band(seg: RoadSegment, a: number, b: number, lo: number, hi: number): Band {
  if (!(b - a > 1e-6) || !(hi - lo > 1e-6)) return { paths: [], simple: true };
  const right: Path64 = [corner(seg, a, lo)];
  const r = chain(seg, a, b, lo, right, false);
  right.push(corner(seg, b, lo));
  const left: Path64 = [corner(seg, a, hi)];
  const l = chain(seg, a, b, hi, left, false);
  left.push(corner(seg, b, hi));
  left.reverse();
  const path = right.concat(left);
  if (r.dirty || l.dirty) return { paths: Clipper.union([withoutSpikes(path)], FillRule.Positive), simple: false };
  return { paths: [path], simple: true };
}

/** The band between signed offsets lo < hi all around a ring segment (a closed way meeting nothing). */
export function ringBand(seg: RoadSegment, lo: number, hi: number): Band {
  const outer: Path64 = [];
  chain(seg, 0, seg.length, lo, outer, true);
  const inner: Path64 = [];
  chain(seg, 0, seg.length, hi, inner, true);
  inner.reverse();
  return { paths: Clipper.union([withoutSpikes(outer), withoutSpikes(inner)], FillRule.Positive), simple: false };
}

/**
 * The path without vertices where it turns straight back on itself (and without repeated
 * points): such a spike has no area, but Clipper 2.0.1 loses the spike's base vertex too when the
 * spike is horizontal — a mitre 2 mm past a cut on a roundabout took a 10 m² wedge with it.
 */
export function withoutSpikes(path: Path64): Path64 {
  const out: Point64[] = [];
  const backtracks = (p: Point64, q: Point64, r: Point64) =>
    (q.x - p.x) * (r.y - q.y) - (q.y - p.y) * (r.x - q.x) === 0 && (q.x - p.x) * (r.x - q.x) + (q.y - p.y) * (r.y - q.y) <= 0;
  for (const q of path) {
    while (out.length >= 2 && backtracks(out[out.length - 2], out[out.length - 1], q)) out.pop();
    if (out.length === 0 || out[out.length - 1].x !== q.x || out[out.length - 1].y !== q.y) out.push(q);
  }
  // and across the seam
  for (let changed = true; changed && out.length >= 3; ) {
    changed = false;
    const n = out.length;
    if (out[0].x === out[n - 1].x && out[0].y === out[n - 1].y) {
      out.pop();
      changed = true;
      continue;
    }
    if (backtracks(out[n - 2], out[n - 1], out[0])) {
      out.pop();
      changed = true;
      continue;
    }
    if (backtracks(out[n - 1], out[0], out[1])) {
      out.shift();
      changed = true;
    }
  }
  return out;
}
