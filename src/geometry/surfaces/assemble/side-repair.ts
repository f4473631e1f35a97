import Flatbush from 'flatbush';
import { next, STRIDE } from './half-edges.ts';

/**
 * The first step of completing a draped piece's triangulation (insert-nodes.ts): ring vertices
 * that lie on a triangle side without being its corner — a vertex earcut skipped on a straight
 * side, or a T-junction where it dropped a zero-area triangle between collinear sides of two
 * rings — become corners, the triangle fanned along that side, so the mesh boundary runs through
 * every ring vertex. Pure index arithmetic on flat arrays.
 */

/** Makes every ring vertex lying on a triangle side a corner of it, in place (`trusted`: see sidesNeedRepair). */
export function repairRingSides(coords: number[], tris: number[], ringStarts: readonly number[], ringVertices: number, trusted: boolean): void {
  const need = sidesNeedRepair(coords, tris, ringStarts, ringVertices, trusted);
  if (need !== NONE) repairSides(coords, tris, need === INSIDE, ringStarts, ringVertices);
}

/** What repairSides has to look at: nothing, the sides without a twin inside the polygon only, or all of them. */
const NONE = 0,
  INSIDE = 1,
  ALL = 2;

/**
 * Where repairSides can find anything: at a side without a twin that is not a ring side (a
 * T-junction inside), or on a ring side when a vertex lies on one (rings touching). A `trusted`
 * triangulation — one that covers the polygon's area exactly with every vertex used
 * (triangulateRings' `ok`) — has no vertex on a ring side: a triangle along that side would
 * overlap the vertex's own triangles. Most triangulations need nothing, and finding that out costs
 * a hash of the sides instead of an index of the vertices and a search per side.
 */
function sidesNeedRepair(coords: number[], tris: number[], ringStarts: readonly number[], ringVertices: number, trusted: boolean): number {
  const n = coords.length / 2;
  if (n > ringVertices) return ALL; // points added by a triangulation: look at everything
  const inside = twinlessInside(tris, ringStarts, ringVertices);
  if (!trusted && vertexOnRingSide(coords, ringStarts, ringVertices)) return ALL;
  return inside ? INSIDE : NONE;
}

/** Some side that is not a ring side lacks its twin (the opposite side of a neighbouring triangle). */
function twinlessInside(tris: number[], ringStarts: readonly number[], ringVertices: number): boolean {
  let size = 16;
  while (size < 2 * tris.length) size *= 2;
  const us = new Int32Array(size).fill(-1),
    vs = new Int32Array(size);
  let inner = 0;
  for (let e = 0; e < tris.length; e++) {
    const u = tris[e],
      v = tris[next(e)];
    if (isRingSide(u, v, ringStarts, ringVertices)) continue;
    inner++;
    let h = hash(u, v, size);
    while (us[h] >= 0) h = (h + 1) & (size - 1);
    us[h] = u;
    vs[h] = v;
  }
  if (inner === 0) return false;
  for (let e = 0; e < tris.length; e++) {
    const u = tris[e],
      v = tris[next(e)];
    if (isRingSide(u, v, ringStarts, ringVertices)) continue;
    let h = hash(v, u, size),
      found = false;
    while (us[h] >= 0) {
      if (us[h] === v && vs[h] === u) {
        found = true;
        break;
      }
      h = (h + 1) & (size - 1);
    }
    if (!found) return true;
  }
  return false;
}

function hash(u: number, v: number, size: number): number {
  return (Math.imul(u, 0x9e3779b1) ^ Math.imul(v, 0x85ebca77)) & (size - 1);
}

/** u and v are neighbours along their ring (either way round). */
function isRingSide(u: number, v: number, ringStarts: readonly number[], ringVertices: number): boolean {
  if (u >= ringVertices || v >= ringVertices) return false;
  const lo = Math.min(u, v),
    hi = Math.max(u, v);
  const r = ringOf(lo, ringStarts);
  const end = r + 1 < ringStarts.length ? ringStarts[r + 1] : ringVertices;
  return (hi === lo + 1 && hi < end) || (lo === ringStarts[r] && hi === end - 1);
}

/** The ring a vertex belongs to (ringStarts ascending). */
function ringOf(i: number, ringStarts: readonly number[]): number {
  let lo = 0,
    hi = ringStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ringStarts[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Some ring vertex lies on a ring side (within ON_SIDE, strictly between its ends): each side's thin box looked up in an index of the vertices. */
function vertexOnRingSide(coords: number[], ringStarts: readonly number[], ringVertices: number): boolean {
  const points = new Flatbush(ringVertices);
  for (let i = 0; i < ringVertices; i++) points.add(coords[2 * i], coords[2 * i + 1], coords[2 * i], coords[2 * i + 1]);
  points.finish();
  for (let r = 0; r < ringStarts.length; r++) {
    const start = ringStarts[r],
      end = r + 1 < ringStarts.length ? ringStarts[r + 1] : ringVertices;
    for (let u = start; u < end; u++) {
      const v = u + 1 < end ? u + 1 : start;
      const ux = coords[2 * u],
        uy = coords[2 * u + 1],
        dx = coords[2 * v] - ux,
        dy = coords[2 * v + 1] - uy;
      const len2 = dx * dx + dy * dy;
      if (len2 === 0) continue;
      const len = Math.sqrt(len2);
      const hits = points.search(
        Math.min(ux, ux + dx) - ON_SIDE,
        Math.min(uy, uy + dy) - ON_SIDE,
        Math.max(ux, ux + dx) + ON_SIDE,
        Math.max(uy, uy + dy) + ON_SIDE,
      );
      for (const i of hits) {
        if (i === u || i === v) continue;
        const px = coords[2 * i] - ux,
          py = coords[2 * i + 1] - uy;
        const along = (px * dx + py * dy) / len2;
        if (!(along * len > ON_SIDE && (1 - along) * len > ON_SIDE)) continue;
        if (Math.abs(px * dy - py * dx) / len < ON_SIDE) return true;
      }
    }
  }
  return false;
}

/** A vertex this close (metres) to a side, strictly between its ends, lies on it. */
const ON_SIDE = 1e-6;

/**
 * Every triangle side without a twin (the boundary, and the long side of a T-junction) is checked
 * for vertices lying on it — but the ring sides when `insideOnly` (they carry none, see
 * sidesNeedRepair); a side with some is fanned from the opposite corner through them.
 */
function repairSides(coords: number[], tris: number[], insideOnly: boolean, ringStarts: readonly number[], ringVertices: number): void {
  const n = coords.length / 2;
  const points = new Flatbush(n);
  for (let i = 0; i < n; i++) points.add(coords[2 * i], coords[2 * i + 1], coords[2 * i], coords[2 * i + 1]);
  points.finish();
  // directed sides present (count per side): a side u→v has a twin when v→u is present
  const sides = new Map<number, number>();
  const add = (u: number, v: number, d: number) => {
    const key = u * STRIDE + v,
      c = (sides.get(key) ?? 0) + d;
    if (c > 0) sides.set(key, c);
    else sides.delete(key);
  };
  for (let e = 0; e < tris.length; e++) add(tris[e], tris[next(e)], 1);
  // each fan takes a vertex off a side for good; the cap only guards against a degenerate input
  let budget = 8 * tris.length + 64;
  for (let t = 0; t < tris.length / 3 && budget > 0; t++, budget--) {
    let k = 0,
      on: number[] = [];
    for (; k < 3; k++) {
      const u = tris[3 * t + k],
        v = tris[3 * t + ((k + 1) % 3)];
      if (sides.has(v * STRIDE + u)) continue;
      if (insideOnly && isRingSide(u, v, ringStarts, ringVertices)) continue;
      on = verticesOnSide(coords, points, u, v);
      if (on.length > 0) break;
    }
    if (on.length === 0) continue;
    const u = tris[3 * t + k],
      v = tris[3 * t + ((k + 1) % 3)],
      w = tris[3 * t + ((k + 2) % 3)];
    add(u, v, -1);
    add(v, w, -1);
    add(w, u, -1);
    const chain = [u, ...on, v];
    for (let c = 0; c + 1 < chain.length; c++) {
      const a = chain[c],
        b = chain[c + 1];
      if (c === 0) {
        tris[3 * t] = a;
        tris[3 * t + 1] = b;
        tris[3 * t + 2] = w;
      } else tris.push(a, b, w);
      add(a, b, 1);
      add(b, w, 1);
      add(w, a, 1);
    }
    // the fanned triangles' other sides may carry vertices too: look at this one again (new ones come later)
    t--;
  }
}

/** Vertices strictly inside segment u→v (within ON_SIDE), ordered from u. */
function verticesOnSide(coords: number[], points: Flatbush, u: number, v: number): number[] {
  const ux = coords[2 * u],
    uy = coords[2 * u + 1],
    dx = coords[2 * v] - ux,
    dy = coords[2 * v + 1] - uy;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return [];
  const len = Math.sqrt(len2);
  const found = points.search(
    Math.min(ux, ux + dx) - ON_SIDE,
    Math.min(uy, uy + dy) - ON_SIDE,
    Math.max(ux, ux + dx) + ON_SIDE,
    Math.max(uy, uy + dy) + ON_SIDE,
  );
  let hits: number[] | null = null;
  for (const i of found) {
    if (i === u || i === v) continue;
    const px = coords[2 * i] - ux,
      py = coords[2 * i + 1] - uy;
    const along = (px * dx + py * dy) / len2;
    if (!(along * len > ON_SIDE && (1 - along) * len > ON_SIDE)) continue;
    if (Math.abs(px * dy - py * dx) / len < ON_SIDE) (hits ??= []).push(i);
  }
  if (!hits) return [];
  if (hits.length === 1) return hits;
  // one vertex per position (rings may touch at a point: the same spot under two indices)
  const at = new Map<number, number>();
  for (const h of hits) at.set(h, (coords[2 * h] - ux) * dx + (coords[2 * h + 1] - uy) * dy);
  hits.sort(byValue(at));
  return hits.filter((h, k) => k === 0 || coords[2 * h] !== coords[2 * hits![k - 1]] || coords[2 * h + 1] !== coords[2 * hits![k - 1] + 1]);
}

function byValue(at: Map<number, number>): (a: number, b: number) => number {
  return (a, b) => at.get(a)! - at.get(b)!;
}
