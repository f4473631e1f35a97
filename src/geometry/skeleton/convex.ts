import type { Footprint } from '../types.ts';
import type { FootprintSkeleton } from './types.ts';
import { isConvexRing } from '../planar/polygon-checks.ts';

/**
 * Straight skeleton of a convex footprint without holes, in double precision. A convex polygon has
 * only edge events (a shrinking side vanishes and its neighbours meet), so the skeleton is a short
 * loop over "which side vanishes next". This is the fast path for the most common footprints
 * (rectangles and other convex shapes); the wavefront or CGAL (index.ts) handles the rest. Same
 * output shape.
 */

interface Vertex {
  /** Position at time t0. */
  x: number;
  y: number;
  t0: number;
  /** Velocity that keeps the vertex on both neighbouring offset lines (unit offset speed). */
  vx: number;
  vy: number;
  /** Node index (≥ ring vertex count) or ring vertex index where the vertex was born. */
  node: number;
}

interface Side {
  /** Start and end ring vertex of the original side. */
  p: number;
  q: number;
  /** Inward unit normal and unit direction of the side. */
  nx: number;
  ny: number;
  dx: number;
  dy: number;
  start: Vertex;
  end: Vertex;
  /** Nodes passed by the side's start and end vertices, in time order. */
  startChain: number[];
  endChain: number[];
}

/** The skeleton, or null when the footprint is not a convex ring without holes. */
export function convexSkeleton(footprint: Footprint): FootprintSkeleton | null {
  // Strictly convex: a barely reflex corner needs the general skeleton (its bisector points outwards).
  if (footprint.holes.length > 0 || !isConvexRing(footprint.outer, 0)) return null;
  const ring = footprint.outer;
  const n = ring.length / 2;
  const nodeX: number[] = [],
    nodeY: number[] = [],
    nodeT: number[] = [];
  const addNode = (x: number, y: number, t: number) => {
    nodeX.push(x);
    nodeY.push(y);
    nodeT.push(t);
    return n + nodeX.length - 1;
  };

  const sides: Side[] = [];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const dx = ring[2 * j] - ring[2 * i],
      dy = ring[2 * j + 1] - ring[2 * i + 1];
    const len = Math.hypot(dx, dy);
    if (len === 0) return null;
    sides.push({ p: i, q: j, dx: dx / len, dy: dy / len, nx: -dy / len, ny: dx / len, start: null!, end: null!, startChain: [], endChain: [] });
  }
  for (let i = 0; i < n; i++) {
    const prev = sides[(i + n - 1) % n],
      next = sides[i];
    const v = vertexBetween(prev, next, ring[2 * i], ring[2 * i + 1], 0, i);
    if (!v) return null;
    prev.end = v;
    next.start = v;
  }

  const faces: number[][] = new Array(n);
  let active = sides.slice();
  while (active.length > 0) {
    // The side that vanishes first.
    let best = -1,
      bestT = Infinity;
    for (let k = 0; k < active.length; k++) {
      const t = collapseTime(active[k]);
      if (t < bestT) {
        bestT = t;
        best = k;
      }
    }
    if (best < 0 || !Number.isFinite(bestT)) return null;
    const side = active[best];
    const prev = active[(best + active.length - 1) % active.length];
    const next = active[(best + 1) % active.length];
    const [x, y] = positionAt(side.start, bestT);
    const node = addNode(x, y, bestT);
    faces[side.p] = closeFace(side, node, node);
    active = active.filter((s) => s !== side);
    if (active.length === 0) break;
    prev.endChain.push(node);
    next.startChain.push(node);
    const v = active.length > 2 ? vertexBetween(prev, next, x, y, bestT, node) : null;
    if (v) {
      prev.end = v;
      next.start = v;
      continue;
    }
    // What is left has no width any more (the last ridge, or the final point): close every face now.
    const still: Vertex = { x, y, t0: bestT, vx: 0, vy: 0, node };
    prev.end = still;
    next.start = still;
    const nodeOf = new Map<Vertex, number>([[still, node]]);
    const at = (vertex: Vertex) => {
      let id = nodeOf.get(vertex);
      if (id === undefined) {
        const [vx, vy] = positionAt(vertex, bestT);
        id = addNode(vx, vy, bestT);
        nodeOf.set(vertex, id);
      }
      return id;
    };
    for (const s of active) {
      s.startChain.push(at(s.start));
      s.endChain.push(at(s.end));
      faces[s.p] = closeFace(s, -1, -1);
    }
    break;
  }
  if (faces.some((f) => !f)) return null;
  let maxT = 0;
  for (const t of nodeT) maxT = Math.max(maxT, t);
  if (!(maxT > 0)) return null;
  return { ringVertexCount: n, nodeX, nodeY, nodeT, faces, maxT };
}

/** The moving vertex where side `a` ends and side `b` starts; null when they are antiparallel. */
function vertexBetween(a: Side, b: Side, x: number, y: number, t0: number, node: number): Vertex | null {
  const denom = 1 + a.nx * b.nx + a.ny * b.ny;
  if (denom < 1e-9) return null;
  return { x, y, t0, vx: (a.nx + b.nx) / denom, vy: (a.ny + b.ny) / denom, node };
}

function positionAt(v: Vertex, t: number): [number, number] {
  return [v.x + v.vx * (t - v.t0), v.y + v.vy * (t - v.t0)];
}

/** When the side's two moving ends meet (Infinity if they never do). */
function collapseTime(side: Side): number {
  const a = side.start,
    b = side.end;
  const av = a.vx * side.dx + a.vy * side.dy,
    bv = b.vx * side.dx + b.vy * side.dy;
  const denom = av - bv;
  if (!(denom > 1e-12)) return Infinity;
  const pa = a.x * side.dx + a.y * side.dy - av * a.t0;
  const pb = b.x * side.dx + b.y * side.dy - bv * b.t0;
  return Math.max((pb - pa) / denom, a.t0, b.t0);
}

/** Face of a side: [end, end's nodes…, start's nodes reversed…, start]; `top` nodes close it when given. */
function closeFace(side: Side, topEnd: number, topStart: number): number[] {
  const list = [side.q, ...side.endChain];
  if (topEnd >= 0) list.push(topEnd);
  if (topStart >= 0) list.push(topStart);
  list.push(...side.startChain.slice().reverse(), side.p);
  return list.filter((v, i) => i === 0 || v !== list[i - 1]);
}
