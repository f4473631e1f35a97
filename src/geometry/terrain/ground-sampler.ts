import type { Ring } from '../types.ts';
import type { ElevationGrid } from './elevation-grid.ts';
import { flatBounds, pointInRing } from '../ring.ts';

/**
 * Ground height (m above sea level) at local (x, y): the one draping function that buildings,
 * surfaces, lines, barriers and instances share. It is the terrain *surface* a client draws:
 * every grid cell is two flat triangles split along its south-west → north-east diagonal — the
 * triangulation of three.js `PlaneGeometry`, of the terrain meshes this service returns
 * (terrain-mesh.ts) and of docs/terrain.md — and the edge samples extend beyond the grid. A
 * bilinear patch would agree with the samples but not with any triangulated mesh of them: between
 * samples the two differ by up to a quarter of the cell's twist, which is metres on a hillside.
 */
export type GroundSampler = ((x: number, y: number) => number) & {
  /** The grids behind the sampler (empty for flat ground). */
  readonly grids: readonly ElevationGrid[];
  /** Grid spacing in metres (Infinity for flat ground). */
  readonly spacing: number;
};

/**
 * A ground sampler over one grid or several (e.g. per-tile grids; the first containing the point
 * answers, else the nearest). With no grid, flat ground at `flatHeight` (z = 0 when the request
 * uses no terrain data, docs/design.md).
 *
 * @example
 * const ground = createGroundSampler(tileGrid.padded);
 * const z = ground(12.5, -40);
 */
export function createGroundSampler(grids: ElevationGrid | readonly ElevationGrid[] | null | undefined, flatHeight = 0): GroundSampler {
  const list: readonly ElevationGrid[] = !grids ? [] : Array.isArray(grids) ? grids : [grids as ElevationGrid];
  let fn: (x: number, y: number) => number;
  if (list.length === 0) fn = () => flatHeight;
  else if (list.length === 1) fn = (x, y) => sampleGrid(list[0], x, y);
  else fn = (x, y) => sampleGrid(gridFor(list, x, y), x, y);
  const spacing = list.length === 0 ? Infinity : Math.min(...list.map((g) => (g.bbox.maxX - g.bbox.minX) / (g.columns - 1)));
  return Object.assign(fn, { grids: list, spacing });
}

/**
 * Height of the triangulated grid surface at (x, y), clamped to the grid's extent. In a cell with
 * fractions u (east) and v (north, from the cell's south edge), the diagonal u = v splits it into
 * the south-east triangle SW–SE–NE (u ≥ v) and the north-west triangle SW–NE–NW (u < v).
 */
export function sampleGrid(grid: ElevationGrid, x: number, y: number): number {
  const { bbox, columns, rows, heights } = grid;
  const fc = Math.min(Math.max(((x - bbox.minX) / (bbox.maxX - bbox.minX)) * (columns - 1), 0), columns - 1);
  const fr = Math.min(Math.max(((bbox.maxY - y) / (bbox.maxY - bbox.minY)) * (rows - 1), 0), rows - 1);
  const c = Math.min(Math.floor(fc), columns - 2),
    r = Math.min(Math.floor(fr), rows - 2);
  const u = fc - c,
    v = 1 - (fr - r);
  const nw = r * columns + c;
  const zNW = heights[nw],
    zNE = heights[nw + 1],
    zSW = heights[nw + columns],
    zSE = heights[nw + columns + 1];
  return u >= v ? zSW + u * (zSE - zSW) + v * (zNE - zSE) : zSW + v * (zNW - zSW) + u * (zNE - zNW);
}

function gridFor(grids: readonly ElevationGrid[], x: number, y: number): ElevationGrid {
  let best = grids[0],
    bestDistance = Infinity;
  for (const g of grids) {
    const dx = Math.max(g.bbox.minX - x, 0, x - g.bbox.maxX),
      dy = Math.max(g.bbox.minY - y, 0, y - g.bbox.maxY);
    const d = dx * dx + dy * dy;
    if (d === 0) return g;
    if (d < bestDistance) {
      bestDistance = d;
      best = g;
    }
  }
  return best;
}

/**
 * Parameters t in (0, 1) where the segment a→b crosses an edge of the terrain's triangles: the
 * grid's column and row lines and its SW–NE diagonals (lattice fc + fr = integer). Between two
 * consecutive crossings the segment lies in one triangle, so the ground along it is linear there:
 * its extremes are at the ends and the crossings. Unsorted; may repeat.
 */
export function terrainEdgeCrossings(grids: readonly ElevationGrid[], ax: number, ay: number, bx: number, by: number, out: number[] = []): number[] {
  for (const g of grids) {
    const sx = (g.columns - 1) / (g.bbox.maxX - g.bbox.minX),
      sy = (g.rows - 1) / (g.bbox.maxY - g.bbox.minY);
    // lattice coordinates of the ends (columns east, rows south)
    const ca = (ax - g.bbox.minX) * sx,
      cb = (bx - g.bbox.minX) * sx;
    const ra = (g.bbox.maxY - ay) * sy,
      rb = (g.bbox.maxY - by) * sy;
    pushIntegerCrossings(ca, cb, 0, g.columns - 1, out);
    pushIntegerCrossings(ra, rb, 0, g.rows - 1, out);
    pushIntegerCrossings(ca + ra, cb + rb, 0, g.columns + g.rows - 2, out);
  }
  return out;
}

/** t in (0, 1) where a + t (b − a) is an integer in [lo, hi]. */
function pushIntegerCrossings(a: number, b: number, lo: number, hi: number, out: number[]): void {
  if (a === b) return;
  const from = Math.max(lo, Math.ceil(Math.min(a, b))),
    to = Math.min(hi, Math.floor(Math.max(a, b)));
  for (let k = from; k <= to; k++) {
    const t = (k - a) / (b - a);
    if (t > 0 && t < 1) out.push(t);
  }
}

/**
 * Lowest and highest ground under a footprint (outer ring, local metres): where a building's base
 * goes (min) and how far its walls must reach down. Exact for the triangulated ground: it is
 * linear inside each terrain triangle, so the extremes lie at a grid node inside the ring or on
 * the ring, at a vertex or where a side crosses a triangle edge.
 */
export function footprintGroundRange(ground: GroundSampler, ring: Ring): { min: number; max: number } {
  let min = Infinity,
    max = -Infinity;
  const take = (z: number) => {
    if (z < min) min = z;
    if (z > max) max = z;
  };
  const n = ring.length / 2;
  if (n === 0) return { min: NaN, max: NaN };
  if (ground.grids.length === 0) {
    const z = ground(ring[0], ring[1]);
    return { min: z, max: z };
  }
  alongRing(ground, ring, true, take);
  gridNodesInside(ground, ring, () => false, take);
  return { min, max };
}

/**
 * Calls `visit` with the ground at every point of a polyline (closed: a ring) where the ground
 * along it can have an extreme: its vertices and its crossings of the terrain's triangle edges.
 */
export function alongRing(ground: GroundSampler, points: Ring, closed: boolean, visit: (z: number) => void): void {
  const n = points.length / 2;
  if (n === 1 || ground.grids.length === 0) {
    if (n > 0) visit(ground(points[0], points[1]));
    return;
  }
  const ts: number[] = [];
  for (let i = 0; i < (closed ? n : n - 1); i++) {
    const j = (i + 1) % n;
    const ax = points[2 * i],
      ay = points[2 * i + 1],
      bx = points[2 * j],
      by = points[2 * j + 1];
    visit(ground(ax, ay));
    ts.length = 0;
    for (const t of terrainEdgeCrossings(ground.grids, ax, ay, bx, by, ts)) visit(ground(ax + (bx - ax) * t, ay + (by - ay) * t));
  }
  if (!closed) visit(ground(points[2 * n - 2], points[2 * n - 1]));
}

/** Calls `visit` with the ground at every grid node inside `ring` for which `excluded` is false. */
export function gridNodesInside(ground: GroundSampler, ring: Ring, excluded: (x: number, y: number) => boolean, visit: (z: number) => void): void {
  const { minX, minY, maxX, maxY } = flatBounds(ring);
  for (const g of ground.grids) {
    const dx = (g.bbox.maxX - g.bbox.minX) / (g.columns - 1),
      dy = (g.bbox.maxY - g.bbox.minY) / (g.rows - 1);
    const c0 = Math.max(0, Math.ceil((minX - g.bbox.minX) / dx)),
      c1 = Math.min(g.columns - 1, Math.floor((maxX - g.bbox.minX) / dx));
    const r0 = Math.max(0, Math.ceil((g.bbox.maxY - maxY) / dy)),
      r1 = Math.min(g.rows - 1, Math.floor((g.bbox.maxY - minY) / dy));
    for (let r = r0; r <= r1; r++) {
      const y = g.bbox.maxY - r * dy;
      for (let c = c0; c <= c1; c++) {
        const x = g.bbox.minX + c * dx;
        if (pointInRing(x, y, ring) && !excluded(x, y)) visit(ground(x, y));
      }
    }
  }
}
