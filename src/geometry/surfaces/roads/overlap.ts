/**
 * Exact test whether two pieces on the millimetre grid overlap in area (not merely touch).
 *
 * Road pieces are built to meet along shared edges, so most pairs whose boxes overlap only touch;
 * asking Clipper for their difference would cost a boolean operation each (the bulk of a tile's
 * time). This test is exact on integer coordinates: interiors overlap when two edges cross
 * properly, or when a stretch of one boundary — an edge cut at every point where it meets the
 * other boundary — lies strictly inside the other piece. Otherwise each boundary stretch is
 * outside or on the other boundary, and the pieces only touch — unless one boundary lies wholly
 * on the other (identical pieces, a piece filling the other's hole), where the answer is a
 * conservative yes.
 *
 * Where a stretch lies on the other boundary, the two interiors are probed a quarter millimetre
 * beside it: neighbours have them on opposite sides, two copies of one piece on the same side.
 *
 * Pieces are Clipper-style: a list of rings, holes included, read with the even-odd rule (valid
 * for normalised polygons with holes), each ring running with its piece's interior on its left
 * (outer rings counter-clockwise, holes clockwise).
 */
import type { Paths64 } from 'clipper2-ts';

export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

const orient = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);

/** A piece's edges as a flat [x1, y1, x2, y2, …] list (rings closed), built once per piece. */
export function pieceEdges(paths: Paths64): Float64Array {
  let n = 0;
  for (const r of paths) n += r.length;
  const out = new Float64Array(4 * n);
  let k = 0;
  for (const ring of paths) {
    const m = ring.length;
    for (let i = 0; i < m; i++) {
      const p = ring[i],
        q = ring[(i + 1) % m];
      out[k++] = p.x;
      out[k++] = p.y;
      out[k++] = q.x;
      out[k++] = q.y;
    }
  }
  return out;
}

/** Where a point lies relative to the edges (even-odd): -1 outside, 0 on the boundary, 1 inside. */
function locate(x: number, y: number, e: Float64Array): number {
  let inside = false;
  for (let k = 0; k < e.length; k += 4) {
    const xi = e[k],
      yi = e[k + 1],
      xj = e[k + 2],
      yj = e[k + 3];
    if (yi > y !== yj > y) {
      const cx = ((xj - xi) * (y - yi)) / (yj - yi) + xi;
      if (x < cx) inside = !inside;
    }
    if (x >= (xi < xj ? xi : xj) && x <= (xi < xj ? xj : xi) && y >= (yi < yj ? yi : yj) && y <= (yi < yj ? yj : yi) && orient(xj, yj, xi, yi, x, y) === 0)
      return 0;
  }
  return inside ? 1 : -1;
}

/**
 * Does the boundary of `a` enter the interior of `b`? Returns 'cross' on a proper crossing,
 * 'inside' when some stretch of a's boundary is strictly inside b, 'on' when all of it lies on b's
 * boundary, else 'apart'. `box` is the intersection of the two boxes: nothing outside it can be
 * inside both.
 */
function boundaryAgainst(a: Float64Array, b: Float64Array, box: Box, near: Float64Array): 'cross' | 'inside' | 'on' | 'apart' {
  // b's edges that reach into the common box
  let nn = 0;
  for (let k = 0; k < b.length; k += 4) {
    const x1 = b[k],
      y1 = b[k + 1],
      x2 = b[k + 2],
      y2 = b[k + 3];
    if ((x1 > x2 ? x1 : x2) < box.minX || (x1 < x2 ? x1 : x2) > box.maxX || (y1 > y2 ? y1 : y2) < box.minY || (y1 < y2 ? y1 : y2) > box.maxY) continue;
    near[nn++] = x1;
    near[nn++] = y1;
    near[nn++] = x2;
    near[nn++] = y2;
  }
  let allOn = true;
  const ts: number[] = [];
  for (let i = 0; i < a.length; i += 4) {
    const px = a[i],
      py = a[i + 1],
      qx = a[i + 2],
      qy = a[i + 3];
    const eMinX = px < qx ? px : qx,
      eMaxX = px < qx ? qx : px,
      eMinY = py < qy ? py : qy,
      eMaxY = py < qy ? qy : py;
    if (eMaxX < box.minX || eMinX > box.maxX || eMaxY < box.minY || eMinY > box.maxY) {
      allOn = false;
      continue;
    }
    ts.length = 0;
    const dx = qx - px,
      dy = qy - py;
    const dd = dx * dx + dy * dy;
    for (let k = 0; k < nn; k += 4) {
      const rx = near[k],
        ry = near[k + 1],
        sx = near[k + 2],
        sy = near[k + 3];
      if ((rx > sx ? rx : sx) < eMinX || (rx < sx ? rx : sx) > eMaxX || (ry > sy ? ry : sy) < eMinY || (ry < sy ? ry : sy) > eMaxY) continue;
      const o1 = orient(px, py, qx, qy, rx, ry),
        o2 = orient(px, py, qx, qy, sx, sy);
      if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) {
        const o3 = orient(rx, ry, sx, sy, px, py),
          o4 = orient(rx, ry, sx, sy, qx, qy);
        if ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) return 'cross';
      }
      // points of b's boundary on this edge split it
      if (o1 === 0) {
        const t = ((rx - px) * dx + (ry - py) * dy) / dd;
        if (t > 0 && t < 1) ts.push(t);
      }
      if (o2 === 0) {
        const t = ((sx - px) * dx + (sy - py) * dy) / dd;
        if (t > 0 && t < 1) ts.push(t);
      }
    }
    ts.push(0, 1);
    if (ts.length > 2) ts.sort((u, v) => u - v);
    for (let k = 0; k + 1 < ts.length; k++) {
      if (ts[k + 1] - ts[k] <= 0) continue;
      const t = (ts[k] + ts[k + 1]) / 2;
      const x = px + t * dx,
        y = py + t * dy;
      if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY) {
        allOn = false;
        continue;
      }
      const w = locate(x, y, b);
      if (w === 1) return 'inside';
      if (w === -1) {
        allOn = false;
        continue;
      }
      // on b's boundary: the pieces overlap when a's interior (left of the edge: rings run with the
      // interior on their left) is also b's interior there — two copies of one edge, not neighbours
      const l = Math.sqrt(dd);
      if (locate(x - (PROBE * dy) / l, y + (PROBE * dx) / l, b) === 1) return 'inside';
    }
  }
  return allOn ? 'on' : 'apart';
}

/** How far beside a shared edge the interiors are probed, grid units (a quarter millimetre). */
const PROBE = 0.25;

let scratch = new Float64Array(1024);

/** True when the pieces (given by their edges and boxes) share area — more than edges or points. */
export function piecesOverlap(a: Float64Array, aBox: Box, b: Float64Array, bBox: Box): boolean {
  const box: Box = {
    minX: Math.max(aBox.minX, bBox.minX),
    minY: Math.max(aBox.minY, bBox.minY),
    maxX: Math.min(aBox.maxX, bBox.maxX),
    maxY: Math.min(aBox.maxY, bBox.maxY),
  };
  if (box.minX >= box.maxX || box.minY >= box.maxY) return false;
  if (scratch.length < Math.max(a.length, b.length)) scratch = new Float64Array(2 * Math.max(a.length, b.length));
  const ab = boundaryAgainst(a, b, box, scratch);
  if (ab === 'cross' || ab === 'inside') return true;
  const ba = boundaryAgainst(b, a, box, scratch);
  if (ba === 'cross' || ba === 'inside') return true;
  // one boundary lying wholly on the other: identical pieces, a piece filling a hole of the other,
  // or one being a part of the other — rare; answer "maybe" and let Clipper decide
  return ab === 'on' || ba === 'on';
}
