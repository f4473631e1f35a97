import type { BBox, Ring } from '../types.ts';
import { pointInRing, signedArea2 } from '../ring.ts';

/**
 * The request polygon prepared for cropping (cropScene): counter-clockwise, its edges as flat
 * typed arrays (start, unit direction, length, outward normal) so the cutters' hot loops read
 * numbers, not objects. Pure data; build it once per tile.
 */
export interface CropPolygon {
  /** Counter-clockwise ring [x0, y0, …] without the closing duplicate. */
  ring: Ring;
  /** Number of edges (= vertices). */
  n: number;
  /** Per edge k, at 8k: ax, ay, bx, by, ux, uy (unit direction a→b), length, and at 8k+7 the line offset c = n·a. */
  edges: Float64Array;
  bbox: BBox;
}

/** Outward normal of edge k of a counter-clockwise ring: (uy, −ux). */
export function edgeNormal(p: CropPolygon, k: number): [number, number] {
  return [p.edges[8 * k + 5], -p.edges[8 * k + 4]];
}

/** Prepares a ring (either orientation; repeated points dropped) for the cutters. */
export function cropPolygon(input: Ring): CropPolygon {
  const pts: number[] = [];
  for (let i = 0; i < input.length; i += 2) {
    const x = input[i],
      y = input[i + 1];
    const m = pts.length;
    if (m >= 2 && Math.hypot(x - pts[m - 2], y - pts[m - 1]) < 1e-9) continue;
    pts.push(x, y);
  }
  if (pts.length >= 4 && Math.hypot(pts[0] - pts[pts.length - 2], pts[1] - pts[pts.length - 1]) < 1e-9) pts.length -= 2;
  let ring = pts;
  if (signedArea2(ring) < 0) {
    ring = [];
    for (let i = pts.length - 2; i >= 0; i -= 2) ring.push(pts[i], pts[i + 1]);
  }
  const n = ring.length / 2;
  const edges = new Float64Array(8 * n);
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let k = 0; k < n; k++) {
    const ax = ring[2 * k],
      ay = ring[2 * k + 1],
      bx = ring[(2 * k + 2) % ring.length],
      by = ring[(2 * k + 3) % ring.length];
    const len = Math.hypot(bx - ax, by - ay);
    const ux = (bx - ax) / len,
      uy = (by - ay) / len;
    edges.set([ax, ay, bx, by, ux, uy, len, uy * ax - ux * ay], 8 * k);
    minX = Math.min(minX, ax);
    maxX = Math.max(maxX, ax);
    minY = Math.min(minY, ay);
    maxY = Math.max(maxY, ay);
  }
  return { ring, n, edges, bbox: { minX, minY, maxX, maxY } };
}

/** Whether (x, y) lies inside the polygon (even-odd; points on the boundary may go either way). */
export function insidePolygon(p: CropPolygon, x: number, y: number): boolean {
  const b = p.bbox;
  if (x < b.minX || x > b.maxX || y < b.minY || y > b.maxY) return false;
  return pointInRing(x, y, p.ring);
}

/**
 * Whether edge k's segment (grown by `pad`) meets the box: their boxes overlap and the box's
 * corners do not all lie on one side of the edge's line (a long diagonal edge's box holds many
 * boxes its segment passes far from).
 */
export function edgeMeetsBox(p: CropPolygon, k: number, box: BBox, pad = 0): boolean {
  const e = p.edges,
    o = 8 * k;
  if (
    Math.min(e[o], e[o + 2]) - pad > box.maxX ||
    Math.max(e[o], e[o + 2]) + pad < box.minX ||
    Math.min(e[o + 1], e[o + 3]) - pad > box.maxY ||
    Math.max(e[o + 1], e[o + 3]) + pad < box.minY
  )
    return false;
  const nx = e[o + 5],
    ny = -e[o + 4],
    c = e[o + 7];
  // signed distances of the corners: the extreme ones are at the corners picked by the normal's signs
  const lo = nx * (nx >= 0 ? box.minX : box.maxX) + ny * (ny >= 0 ? box.minY : box.maxY) - c;
  const hi = nx * (nx >= 0 ? box.maxX : box.minX) + ny * (ny >= 0 ? box.maxY : box.minY) - c;
  return lo <= pad && hi >= -pad;
}

/**
 * Where a box lies against the polygon: `inside`, `outside` or `crosses` (some edge's box meets
 * it — conservative: a `crosses` box may still lie wholly on one side). Lets the cutters skip the
 * common case — a building or tile far from the boundary — at the cost of one pass over the edges.
 */
export function boxRelation(p: CropPolygon, box: BBox, pad = 1e-3): 'inside' | 'outside' | 'crosses' {
  const b = p.bbox;
  if (box.minX > b.maxX + pad || box.maxX < b.minX - pad || box.minY > b.maxY + pad || box.maxY < b.minY - pad) return 'outside';
  for (let k = 0; k < p.n; k++) if (edgeMeetsBox(p, k, box, pad)) return 'crosses';
  return pointInRing((box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2, p.ring) ? 'inside' : 'outside';
}

/** The point of the polygon's boundary nearest to (x, y). */
export function nearestBoundaryPoint(p: CropPolygon, x: number, y: number): [number, number] {
  let best = Infinity,
    bx = x,
    by = y;
  const e = p.edges;
  for (let k = 0; k < p.n; k++) {
    const o = 8 * k;
    const t = Math.max(0, Math.min(e[o + 6], (x - e[o]) * e[o + 4] + (y - e[o + 1]) * e[o + 5]));
    const qx = e[o] + t * e[o + 4],
      qy = e[o + 1] + t * e[o + 5];
    const d = Math.hypot(x - qx, y - qy);
    if (d < best) {
      best = d;
      bx = qx;
      by = qy;
    }
  }
  return [bx, by];
}

/** Distance from (x, y) to the polygon's boundary. */
export function distanceToBoundary(p: CropPolygon, x: number, y: number): number {
  let best = Infinity;
  const e = p.edges;
  for (let k = 0; k < p.n; k++) {
    const o = 8 * k;
    const t = Math.max(0, Math.min(e[o + 6], (x - e[o]) * e[o + 4] + (y - e[o + 1]) * e[o + 5]));
    best = Math.min(best, Math.hypot(x - e[o] - t * e[o + 4], y - e[o + 1] - t * e[o + 5]));
  }
  return best;
}

/** Distance by which (x, y) lies outside the polygon (0 inside): what the tests judge. */
export function distanceOutside(p: CropPolygon, x: number, y: number): number {
  return insidePolygon(p, x, y) ? 0 : distanceToBoundary(p, x, y);
}

/**
 * The polygon with every vertex moved `metres` inwards along its bisector (at most `metres`, so
 * no edge moves outwards): a retry for a cut that met a degenerate coincidence (a building corner
 * exactly on a polygon vertex) — the crop then lies that much inside, never outside.
 */
export function nudgeInwards(p: CropPolygon, metres: number): CropPolygon {
  const out: number[] = [];
  for (let k = 0; k < p.n; k++) {
    const prev = (k + p.n - 1) % p.n;
    const [n1x, n1y] = edgeNormal(p, prev),
      [n2x, n2y] = edgeNormal(p, k);
    let bx = -(n1x + n2x),
      by = -(n1y + n2y);
    const len = Math.hypot(bx, by);
    if (len < 1e-9) {
      bx = p.edges[8 * k + 4];
      by = p.edges[8 * k + 5];
    } else {
      bx /= len;
      by /= len;
    }
    out.push(p.ring[2 * k] + bx * metres, p.ring[2 * k + 1] + by * metres);
  }
  return cropPolygon(out);
}
