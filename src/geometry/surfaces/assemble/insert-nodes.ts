import Flatbush from 'flatbush';
import { snapToGrid, type DrapeLattice } from './drape.ts';
import { next, twins } from './half-edges.ts';
import { repairRingSides } from './side-repair.ts';

/**
 * Steiner points for draping: the lattice nodes that lie well inside a triangulated polygon are
 * added as vertices, so a large piece gets a vertex at every terrain grid node and no triangle
 * spans much more than a grid cell. Pure index arithmetic on flat arrays (earcut style).
 *
 * The triangulation is kept valid at each step (a node inside a triangle splits it in three, a
 * node on an inner edge splits both triangles beside it), and the caller makes it Delaunay
 * afterwards (earcut's `refine`), which also turns the fans around each node into good triangles.
 */

/** Nodes closer than this share of the lattice step to the boundary are left out (the boundary is split at the lattice lines already). */
export const NODE_BOUNDARY_SHARE = 0.25;

/** Within this distance (metres) of an edge a node counts as lying on it. */
const ON_EDGE = 1e-3;

/**
 * Completes a counter-clockwise triangulation `tris` of the polygon whose rings are
 * `coords[0, 2 · ringVertices)` (split as `ringStarts` says), in place:
 *
 * 1. ring vertices that lie on a triangle side without being its corner — a vertex earcut skipped
 *    on a straight side, or a T-junction where it dropped a zero-area triangle between collinear
 *    sides of two rings — become corners: the triangle is fanned along that side. So the mesh
 *    boundary runs through every ring vertex (and an outline is made of mesh vertices);
 * 2. with a lattice, the lattice nodes inside the polygon and at least NODE_BOUNDARY_SHARE · step
 *    from its boundary are inserted (appended to `coords`).
 *
 * `trusted`: the triangulation covers the polygon exactly, using every vertex (see sidesNeedRepair).
 * Returns whether anything changed.
 */
export function completeTriangulation(
  coords: number[],
  tris: number[],
  ringStarts: readonly number[],
  ringVertices: number,
  lattice: DrapeLattice | null,
  trusted = false,
): boolean {
  if (tris.length === 0) return false;
  const before = tris.length;
  repairRingSides(coords, tris, ringStarts, ringVertices, trusted);
  const repaired = tris.length !== before;
  if (!lattice) return repaired;
  const nodes = latticeNodesInside(coords.slice(0, 2 * ringVertices), ringStarts, lattice, NODE_BOUNDARY_SHARE * lattice.step);
  if (nodes.length === 0) return repaired;
  const he = twins(tris);
  let last = 0;
  for (let k = 0; k < nodes.length; k += 2) {
    const x = nodes[k],
      y = nodes[k + 1];
    const t = locate(coords, tris, he, x, y, last);
    if (t < 0) continue;
    last = t;
    insertPoint(coords, tris, he, t, x, y);
  }
  return true;
}

/** Nodes (flat x, y) inside the polygon (even-odd over all rings) and at least `margin` from every ring edge, row by row. */
function latticeNodesInside(coords: number[], ringStarts: readonly number[], lattice: DrapeLattice, margin: number): number[] {
  const n = coords.length / 2;
  const ends = [...ringStarts.slice(1), n];
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = coords[2 * i],
      y = coords[2 * i + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const { ox, oy, step } = lattice;
  const i0 = Math.ceil((minX + margin - ox) / step),
    i1 = Math.floor((maxX - margin - ox) / step);
  const j0 = Math.ceil((minY + margin - oy) / step),
    j1 = Math.floor((maxY - margin - oy) / step);
  if (i0 > i1 || j0 > j1) return [];

  // crossings of every ring edge with every lattice row
  const rows: number[][] = Array.from({ length: j1 - j0 + 1 }, () => []);
  const edges = new Flatbush(n);
  for (let r = 0; r < ringStarts.length; r++) {
    for (let i = ringStarts[r]; i < ends[r]; i++) {
      const j = i + 1 < ends[r] ? i + 1 : ringStarts[r];
      const ax = coords[2 * i],
        ay = coords[2 * i + 1],
        bx = coords[2 * j],
        by = coords[2 * j + 1];
      edges.add(Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by));
      const lo = Math.max(j0, Math.ceil((Math.min(ay, by) - oy) / step)),
        hi = Math.min(j1, Math.floor((Math.max(ay, by) - oy) / step));
      for (let row = lo; row <= hi; row++) {
        const y = oy + row * step;
        if (ay > y === by > y) continue;
        rows[row - j0].push(ax + ((y - ay) / (by - ay)) * (bx - ax));
      }
    }
  }
  edges.finish();
  const out: number[] = [];
  const m2 = margin * margin;
  for (let row = j0; row <= j1; row++) {
    const xs = rows[row - j0].sort((a, b) => a - b);
    if (xs.length < 2) continue;
    const y = oy + row * step;
    let c = 0;
    for (let i = i0; i <= i1; i++) {
      const x = ox + i * step;
      while (c < xs.length && xs[c] < x) c++;
      if (c % 2 === 0) continue; // outside (even number of crossings to the left)
      const near = edges.search(x - margin, y - margin, x + margin, y + margin, (e) => segmentDistance2(coords, e, ringStarts, ends, x, y) < m2);
      // on the millimetre grid, like every other mesh vertex (see snapToGrid in drape.ts)
      if (near.length === 0) out.push(snapToGrid(x), snapToGrid(y));
    }
  }
  return out;
}

/** Squared distance from (x, y) to ring edge number `e` (edges are numbered like the vertices they start at). */
function segmentDistance2(coords: number[], e: number, starts: readonly number[], ends: readonly number[], x: number, y: number): number {
  let r = 0;
  while (e >= ends[r]) r++;
  const j = e + 1 < ends[r] ? e + 1 : starts[r];
  const ax = coords[2 * e],
    ay = coords[2 * e + 1],
    dx = coords[2 * j] - ax,
    dy = coords[2 * j + 1] - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.min(Math.max(((x - ax) * dx + (y - ay) * dy) / len2, 0), 1) : 0;
  const px = ax + t * dx - x,
    py = ay + t * dy - y;
  return px * px + py * py;
}

function orient(coords: number[], a: number, b: number, x: number, y: number): number {
  const ax = coords[2 * a],
    ay = coords[2 * a + 1];
  return (coords[2 * b] - ax) * (y - ay) - (coords[2 * b + 1] - ay) * (x - ax);
}

/** The triangle containing (x, y) (edges included): a walk from `start`, else a scan of all; −1 when none. */
function locate(coords: number[], tris: number[], he: number[], x: number, y: number, start: number): number {
  let t = start;
  for (let steps = 0; steps < 4096; steps++) {
    let moved = false;
    for (let k = 0; k < 3; k++) {
      const e = 3 * t + k;
      if (orient(coords, tris[e], tris[next(e)], x, y) < 0) {
        if (he[e] < 0) {
          steps = 4096;
          break;
        }
        t = Math.floor(he[e] / 3);
        moved = true;
        break;
      }
    }
    if (!moved && steps < 4096) return t;
  }
  for (let s = 0; s < tris.length / 3; s++) {
    if (
      orient(coords, tris[3 * s], tris[3 * s + 1], x, y) >= 0 &&
      orient(coords, tris[3 * s + 1], tris[3 * s + 2], x, y) >= 0 &&
      orient(coords, tris[3 * s + 2], tris[3 * s], x, y) >= 0
    )
      return s;
  }
  return -1;
}

/** Splits triangle t at (x, y): in three, or — on an inner edge — both triangles beside it in two. Skips a point on a corner or on the boundary. */
function insertPoint(coords: number[], tris: number[], he: number[], t: number, x: number, y: number): void {
  let onEdge = -1;
  for (let k = 0; k < 3; k++) {
    const e = 3 * t + k,
      a = tris[e],
      b = tris[next(e)];
    const len = Math.hypot(coords[2 * b] - coords[2 * a], coords[2 * b + 1] - coords[2 * a + 1]);
    if (Math.abs(orient(coords, a, b, x, y)) / len >= ON_EDGE) continue;
    if (onEdge >= 0) return; // near two edges: on a corner
    onEdge = e;
  }
  for (let k = 0; k < 3; k++) {
    const v = tris[3 * t + k];
    if (Math.hypot(coords[2 * v] - x, coords[2 * v + 1] - y) < ON_EDGE) return;
  }
  const p = coords.length / 2;
  if (onEdge < 0) {
    coords.push(x, y);
    const a = tris[3 * t],
      b = tris[3 * t + 1],
      c = tris[3 * t + 2];
    const h0 = he[3 * t],
      h1 = he[3 * t + 1],
      h2 = he[3 * t + 2];
    const t1 = tris.length / 3,
      t2 = t1 + 1;
    tris[3 * t + 2] = p;
    tris.push(b, c, p, c, a, p);
    he.push(0, 0, 0, 0, 0, 0);
    link(he, 3 * t, h0);
    link(he, 3 * t + 1, 3 * t1 + 2);
    link(he, 3 * t + 2, 3 * t2 + 1);
    link(he, 3 * t1, h1);
    link(he, 3 * t1 + 1, 3 * t2 + 2);
    link(he, 3 * t2, h2);
    return;
  }
  const f = he[onEdge];
  if (f < 0) return; // on the boundary: stays a boundary vertex only if the ring has it
  coords.push(x, y);
  // t = (u, v, w) with the split edge u→v first; s = (v, u, z) with v→u first
  const e = onEdge,
    s = Math.floor(f / 3);
  const u = tris[e],
    v = tris[next(e)],
    w = tris[next(next(e))];
  const z = tris[next(next(f))];
  const hvw = he[next(e)],
    hwu = he[next(next(e))],
    huz = he[next(f)],
    hzv = he[next(next(f))];
  const t1 = tris.length / 3,
    s1 = t1 + 1;
  tris[3 * t] = u;
  tris[3 * t + 1] = p;
  tris[3 * t + 2] = w;
  tris[3 * s] = v;
  tris[3 * s + 1] = p;
  tris[3 * s + 2] = z;
  tris.push(p, v, w, p, u, z);
  he.push(0, 0, 0, 0, 0, 0);
  // t: u→p, p→w, w→u   t1: p→v, v→w, w→p   s: v→p, p→z, z→v   s1: p→u, u→z, z→p
  link(he, 3 * t, 3 * s1);
  link(he, 3 * t + 1, 3 * t1 + 2);
  link(he, 3 * t + 2, hwu);
  link(he, 3 * t1, 3 * s);
  link(he, 3 * t1 + 1, hvw);
  link(he, 3 * s + 1, 3 * s1 + 2);
  link(he, 3 * s + 2, hzv);
  link(he, 3 * s1 + 1, huz);
}

function link(he: number[], a: number, b: number): void {
  he[a] = b;
  if (b >= 0) he[b] = a;
}
