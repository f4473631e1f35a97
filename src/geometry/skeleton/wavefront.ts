import type { Footprint } from '../types.ts';
import type { FootprintSkeleton } from './types.ts';
import { heapPop, heapPush } from './event-heap.ts';
import { polishNodes } from './polish-nodes.ts';

/**
 * Straight skeleton of any footprint (holes allowed) by simulating the shrinking wavefront in
 * double precision: edge events (a side piece vanishes), split events (a reflex corner runs into
 * a side) and ridge events (two opposite sides meet along a line). 10–100× faster than CGAL in
 * WebAssembly, but without exact arithmetic: callers must check the result (check.ts
 * skeletonIsPlausible) and fall back to CGAL when it fails. Returns null when it gives up, also on
 * near-ties whose outcome doubles cannot decide (see SLIVER).
 */

interface Side {
  p: number; // ring vertex where the side starts
  q: number; // ring vertex where it ends
  ax: number;
  ay: number; // a point on its line
  dx: number;
  dy: number; // unit direction
  nx: number;
  ny: number; // inward unit normal
  /** Its pieces in the wavefront, from the q end to the p end. */
  pieces: Piece[];
}

interface Piece {
  side: Side;
  start: Vert;
  end: Vert;
  startChain: number[];
  endChain: number[];
  alive: boolean;
  /** Bumped whenever an end changes, so that stale collapse events are recognised. */
  version: number;
}

interface Vert {
  x: number;
  y: number;
  t0: number;
  vx: number;
  vy: number;
  /** Piece ending here and piece starting here. */
  prev: Piece;
  next: Piece;
  alive: boolean;
}

interface Event {
  t: number;
  kind: 0 | 1;
  piece?: Piece;
  version?: number;
  vert?: Vert;
  side?: Side;
}

const MAX_SIDES = 600;
/**
 * Near-ties. Two events (almost) at once, e.g. both reflex corners of a T's stem reaching each
 * other, can leave a sliver: a piece shorter than SLIVER × footprint size, below what doubles
 * (and CGAL's float32 input) tell from zero, so whether it exists, and on which side, is noise.
 * Harmless when its ends converge or part quickly (SLIVER_CLOSING per unit of offset: it closes
 * at once, or could not have formed); but with nearly parallel neighbours (a T's bar arms once
 * the stem has gone) it lives on as a ridge of its own, and the roof differs by metres between
 * the outcomes. The wavefront then declines and CGAL decides.
 */
const SLIVER = 1e-6;
const SLIVER_CLOSING = 0.01;

export function wavefrontSkeleton(footprint: Footprint): FootprintSkeleton | null {
  const rings = [footprint.outer, ...footprint.holes];
  let n0 = 0;
  for (const r of rings) n0 += r.length / 2;
  if (n0 > MAX_SIDES) return null;
  let scale = 0;
  for (let i = 0; i < footprint.outer.length; i++) scale = Math.max(scale, Math.abs(footprint.outer[i] - footprint.outer[i % 2]));
  const eps = 1e-9 * Math.max(1, scale);

  const nodeX: number[] = [],
    nodeY: number[] = [],
    nodeT: number[] = [];
  const addNode = (x: number, y: number, t: number) => {
    nodeX.push(x);
    nodeY.push(y);
    nodeT.push(t);
    return n0 + nodeX.length - 1;
  };

  // Sides and initial vertices.
  const sides: Side[] = [];
  const verts: Vert[] = [];
  const heap: Event[] = [];
  let base = 0;
  for (const ring of rings) {
    const n = ring.length / 2;
    const ringSides: Side[] = [];
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      const dx = ring[2 * j] - ring[2 * i],
        dy = ring[2 * j + 1] - ring[2 * i + 1];
      const len = Math.hypot(dx, dy);
      if (len === 0) return null;
      const side: Side = {
        p: base + i,
        q: base + j,
        ax: ring[2 * i],
        ay: ring[2 * i + 1],
        dx: dx / len,
        dy: dy / len,
        nx: -dy / len,
        ny: dx / len,
        pieces: [],
      };
      ringSides.push(side);
      sides.push(side);
    }
    const pieces = ringSides.map((side) => ({ side, start: null!, end: null!, startChain: [], endChain: [], alive: true, version: 0 }) as Piece);
    ringSides.forEach((s, k) => s.pieces.push(pieces[k]));
    for (let i = 0; i < n; i++) {
      const prev = pieces[(i + n - 1) % n],
        next = pieces[i];
      const v = makeVert(prev, next, ring[2 * i], ring[2 * i + 1], 0);
      if (!v) return null;
      verts.push(v);
    }
    base += n;
  }

  const push = (e: Event) => heapPush(heap, e);
  const schedulePiece = (piece: Piece, now: number) => {
    const t = collapseTime(piece);
    if (Number.isFinite(t)) push({ t: Math.max(t, now), kind: 0, piece, version: piece.version });
  };
  const scheduleSplits = (v: Vert, now: number) => {
    if (!isReflex(v)) return;
    for (const side of sides) {
      if (side === v.prev.side || side === v.next.side) continue;
      const vn = v.vx * side.nx + v.vy * side.ny;
      if (!(1 - vn > 1e-12)) continue;
      const t = ((v.x - side.ax) * side.nx + (v.y - side.ay) * side.ny - vn * v.t0) / (1 - vn);
      if (!(t >= now - eps) || !Number.isFinite(t)) continue;
      push({ t: Math.max(t, now), kind: 1, vert: v, side });
    }
  };
  for (const s of sides) schedulePiece(s.pieces[0], 0);
  for (const v of verts) scheduleSplits(v, 0);

  let guard = 0;
  const limit = 50 * n0 * n0 + 1000;
  while (heap.length > 0) {
    if (++guard > limit) return null;
    const e = heapPop(heap)!;
    const t = e.t;
    if (e.kind === 0) {
      const piece = e.piece!;
      if (!piece.alive || piece.version !== e.version || !piece.start.alive || !piece.end.alive) continue;
      const [x, y] = positionAt(piece.start, t);
      const node = addNode(x, y, t);
      if (!collapse(piece, node, x, y, t)) return null;
    } else {
      const v = e.vert!;
      if (!v.alive) continue;
      const [bx, by] = positionAt(v, t);
      // The piece of that side the corner runs into (a hole's side too: then the loops merge).
      let hit: Piece | null = null;
      for (const piece of e.side!.pieces) {
        if (!piece.alive) continue;
        if (piece === v.prev || piece === v.next) continue;
        const [sx, sy] = positionAt(piece.start, t),
          [ex, ey] = positionAt(piece.end, t);
        const side = piece.side;
        const a = sx * side.dx + sy * side.dy,
          b = ex * side.dx + ey * side.dy,
          m = bx * side.dx + by * side.dy;
        const off = Math.abs((bx - sx) * side.nx + (by - sy) * side.ny);
        if (off < 1e-6 * Math.max(1, scale) && m > a + eps && m < b - eps) {
          hit = piece;
          break;
        }
      }
      if (!hit) continue;
      const node = addNode(bx, by, t);
      if (!split(v, hit, node, bx, by, t)) return null;
    }
  }

  // Every piece must have closed; assemble one face per side.
  const faces: number[][] = new Array(n0);
  for (const side of sides) {
    const list: number[] = [side.q];
    for (const piece of side.pieces) {
      if (piece.alive) return null;
      list.push(...piece.endChain, ...piece.startChain.slice().reverse());
    }
    list.push(side.p);
    faces[side.p] = list.filter((v, i) => i === 0 || v !== list[i - 1]);
  }
  polishNodes(faces, sides, n0, nodeX, nodeY, nodeT, scale);
  let maxT = 0;
  for (const t of nodeT) maxT = Math.max(maxT, t);
  if (!(maxT > 0)) return null;
  return { ringVertexCount: n0, nodeX, nodeY, nodeT, faces, maxT };

  // --- event handlers (closures over the state above) ---

  /** A piece vanishes at node (x, y): its neighbours meet there. */
  function collapse(piece: Piece, node: number, x: number, y: number, t: number): boolean {
    const prev = piece.start.prev,
      next = piece.end.next;
    piece.alive = false;
    piece.start.alive = false;
    piece.end.alive = false;
    piece.startChain.push(node);
    piece.endChain.push(node);
    if (prev === piece || next === piece) return true;
    prev.endChain.push(node);
    next.startChain.push(node);
    return join(prev, next, x, y, t, node);
  }

  /** Reflex corner v runs into piece `hit` at (x, y): the loop splits in two. */
  function split(v: Vert, hit: Piece, node: number, x: number, y: number, t: number): boolean {
    const left = v.prev,
      right = v.next;
    v.alive = false;
    left.endChain.push(node);
    right.startChain.push(node);
    // hit (X→Y) becomes startPart (X→node) and endPart (node→Y).
    const side = hit.side;
    const startPart: Piece = { side, start: hit.start, end: null!, startChain: hit.startChain, endChain: [node], alive: true, version: 0 };
    const endPart: Piece = { side, start: null!, end: hit.end, startChain: [node], endChain: hit.endChain, alive: true, version: 0 };
    hit.alive = false;
    hit.start.next = startPart;
    hit.end.prev = endPart;
    const at = side.pieces.indexOf(hit);
    side.pieces.splice(at, 1, endPart, startPart);
    // … left → (node) → endPart …  and  … startPart → (node) → right …: two loops, or one when a hole joins in.
    return join(left, endPart, x, y, t, node) && join(startPart, right, x, y, t, node);
  }

  /**
   * Makes the vertex where piece `a` ends and piece `b` starts, at (x, y) at time t. When the two
   * sides are opposite and meet along a line (a ridge), the shorter of the two pieces vanishes at
   * once along that line and the search continues with the next neighbours.
   */
  function join(a: Piece, b: Piece, x: number, y: number, t: number, node: number): boolean {
    if (a === b) {
      // A loop of one piece: it has shrunk to nothing here.
      a.alive = false;
      return true;
    }
    if (a.start === b.end) {
      // Two pieces between the same two corners enclose nothing: this part of the skeleton is done.
      const far = a.start;
      const [fx, fy] = positionAt(far, t);
      const farNode = sameSpot(fx, fy, x, y) ? node : addNode(fx, fy, t);
      a.startChain.push(farNode);
      b.endChain.push(farNode);
      a.alive = b.alive = false;
      far.alive = false;
      return true;
    }
    const v = makeVert(a, b, x, y, t);
    if (v) {
      if (lingers(a, t) || lingers(b, t)) return false;
      schedulePiece(a, t);
      schedulePiece(b, t);
      scheduleSplits(v, t);
      return true;
    }
    // Opposite sides on one line: walk the ridge to the nearer far end.
    const ux = b.side.dx,
      uy = b.side.dy;
    const [pax, pay] = positionAt(a.start, t),
      [pbx, pby] = positionAt(b.end, t);
    const da = (pax - x) * ux + (pay - y) * uy,
      db = (pbx - x) * ux + (pby - y) * uy;
    if (!(da > -eps && db > -eps)) return false;
    if (Math.abs(da - db) <= 1e-7 * Math.max(1, scale)) {
      // Both far ends at once, as far as doubles can tell: either piece may truly keep a sliver.
      if (tieIsAmbiguous(a, b)) return false;
      const far = addNode(pax, pay, t);
      a.startChain.push(far);
      b.endChain.push(far);
      a.alive = b.alive = false;
      a.start.alive = b.end.alive = false;
      const before = a.start.prev,
        after = b.end.next;
      before.endChain.push(far);
      after.startChain.push(far);
      return join(before, after, pax, pay, t, far);
    }
    if (da < db) {
      const far = addNode(pax, pay, t);
      a.startChain.push(far);
      a.alive = false;
      a.start.alive = false;
      const before = a.start.prev;
      before.endChain.push(far);
      b.startChain.push(far);
      return join(before, b, pax, pay, t, far);
    }
    const far = addNode(pbx, pby, t);
    b.endChain.push(far);
    b.alive = false;
    b.end.alive = false;
    const after = b.end.next;
    after.startChain.push(far);
    a.endChain.push(far);
    return join(a, after, pbx, pby, t, far);
  }

  /** Whether piece p is a sliver at time t that lives on (see SLIVER). */
  function lingers(p: Piece, t: number): boolean {
    const s = p.side,
      a = p.start,
      b = p.end;
    const length = (b.x + b.vx * (t - b.t0) - a.x - a.vx * (t - a.t0)) * s.dx + (b.y + b.vy * (t - b.t0) - a.y - a.vy * (t - a.t0)) * s.dy;
    return length <= SLIVER * Math.max(1, scale) && Math.abs((b.vx - a.vx) * s.dx + (b.vy - a.vy) * s.dy) <= SLIVER_CLOSING;
  }

  function sameSpot(ax: number, ay: number, bx: number, by: number): boolean {
    return Math.abs(ax - bx) <= eps && Math.abs(ay - by) <= eps;
  }
}

/**
 * Whether an apparent tie of a ridge walk matters: opposite pieces a (ending) and b (starting)
 * meet along a line and reach their far ends together. Had either truly been longer, it would keep
 * a sliver between its far neighbour and the other's (see SLIVER): the tie matters when such a
 * sliver would live on. Unless the tie is exact, also after CGAL's rounding to float32 (which moves
 * collinear points on a sloped line off it): a and b exactly opposite and axis-parallel, the two
 * neighbours on one axis-parallel line (an axis-aligned T with its arms at one y).
 */
function tieIsAmbiguous(a: Piece, b: Piece): boolean {
  const before = a.start.prev,
    after = b.end.next;
  if (before === after || before === b || after === a) return false; // the loop closes here anyway
  const p = before.side,
    q = after.side,
    sa = a.side,
    sb = b.side;
  const exact =
    sa.nx === -sb.nx &&
    sa.ny === -sb.ny &&
    (sa.nx === 0 || sa.ny === 0) &&
    p.nx === q.nx &&
    p.ny === q.ny &&
    ((p.nx === 0 && p.ay === q.ay) || (p.ny === 0 && p.ax === q.ax));
  if (exact) return false;
  return sliverLivesOn(p, b, b.end) || sliverLivesOn(q, a, a.start);
}

/** Whether a sliver of piece p's side, between side `other` (its new neighbour) and p's vertex `kept`, would live on. */
function sliverLivesOn(other: Side, p: Piece, kept: Vert): boolean {
  const s = p.side;
  const denom = 1 + other.nx * s.nx + other.ny * s.ny;
  if (denom < 1e-9) return true;
  const vx = (other.nx + s.nx) / denom,
    vy = (other.ny + s.ny) / denom;
  // The new corner is at p's start (other → p) when p is b, at its end (p → other) when p is a.
  const rate = kept === p.end ? (kept.vx - vx) * s.dx + (kept.vy - vy) * s.dy : (vx - kept.vx) * s.dx + (vy - kept.vy) * s.dy;
  return Math.abs(rate) <= SLIVER_CLOSING;
}

/** The vertex between pieces a (ending) and b (starting); null when their sides are opposite and parallel. */
function makeVert(a: Piece, b: Piece, x: number, y: number, t0: number): Vert | null {
  const denom = 1 + a.side.nx * b.side.nx + a.side.ny * b.side.ny;
  if (denom < 1e-9) return null;
  const v: Vert = { x, y, t0, vx: (a.side.nx + b.side.nx) / denom, vy: (a.side.ny + b.side.ny) / denom, prev: a, next: b, alive: true };
  a.end = v;
  b.start = v;
  a.version++;
  b.version++;
  return v;
}

function isReflex(v: Vert): boolean {
  return v.prev.side.dx * v.next.side.dy - v.prev.side.dy * v.next.side.dx < -1e-12;
}

function positionAt(v: Vert, t: number): [number, number] {
  return [v.x + v.vx * (t - v.t0), v.y + v.vy * (t - v.t0)];
}

function collapseTime(piece: Piece): number {
  const a = piece.start,
    b = piece.end,
    side = piece.side;
  const av = a.vx * side.dx + a.vy * side.dy,
    bv = b.vx * side.dx + b.vy * side.dy;
  const denom = av - bv;
  if (!(denom > 1e-12)) return Infinity;
  const pa = a.x * side.dx + a.y * side.dy - av * a.t0;
  const pb = b.x * side.dx + b.y * side.dy - bv * b.t0;
  return Math.max((pb - pa) / denom, a.t0, b.t0);
}
