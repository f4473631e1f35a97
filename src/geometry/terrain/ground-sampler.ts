import type { Ring } from '../types.ts';
import type { ElevationGrid } from './elevation-grid.ts';
import { pointInRing } from '../ring.ts';

/**
 * Ground height (m above sea level) at local (x, y): the one draping function that buildings,
 * surfaces, lines, barriers and instances share. It interpolates the terrain grid bilinearly —
 * the same surface a client gets by interpolating the elevation map — and extends the edge
 * samples beyond the grid.
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

/** Bilinear height of a grid at (x, y), clamped to the grid's extent. */
export function sampleGrid(grid: ElevationGrid, x: number, y: number): number {
  const { bbox, columns, rows, heights } = grid;
  const fc = Math.min(Math.max(((x - bbox.minX) / (bbox.maxX - bbox.minX)) * (columns - 1), 0), columns - 1);
  const fr = Math.min(Math.max(((bbox.maxY - y) / (bbox.maxY - bbox.minY)) * (rows - 1), 0), rows - 1);
  const c = Math.min(Math.floor(fc), columns - 2),
    r = Math.min(Math.floor(fr), rows - 2);
  const tx = fc - c,
    ty = fr - r;
  const k = r * columns + c;
  const top = heights[k] + (heights[k + 1] - heights[k]) * tx;
  const bottom = heights[k + columns] + (heights[k + columns + 1] - heights[k + columns]) * tx;
  return top + (bottom - top) * ty;
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
 * Lowest and highest ground under a footprint (outer ring, local metres): where a building's base
 * goes (min) and how far its walls must reach down. Exact for the bilinear ground: a bilinear
 * patch has no extremum inside a cell, so the extremes lie at grid nodes inside the ring or on the
 * ring; along an edge the ground is quadratic within each cell, so each edge is evaluated at its
 * ends, at every grid-line crossing and at the parabola's vertex between crossings.
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

  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ax = ring[2 * i],
      ay = ring[2 * i + 1],
      bx = ring[2 * j],
      by = ring[2 * j + 1];
    const ts = [0, 1, ...gridCrossings(ground.grids, ax, bx, 'x'), ...gridCrossings(ground.grids, ay, by, 'y')].sort((a, b) => a - b);
    const at = (t: number) => ground(ax + (bx - ax) * t, ay + (by - ay) * t);
    for (let k = 0; k < ts.length; k++) {
      const t0 = ts[k];
      const z0 = at(t0);
      take(z0);
      if (k + 1 >= ts.length || ts[k + 1] - t0 < 1e-12) continue;
      const t1 = ts[k + 1],
        tm = (t0 + t1) / 2;
      const z1 = at(t1),
        zm = at(tm);
      // Parabola through (t0, z0), (tm, zm), (t1, z1): vertex at u = (z0 - z1) / (4 (z0 - 2 zm + z1)) + 1/2 of the span.
      const curvature = z0 - 2 * zm + z1;
      if (Math.abs(curvature) > 1e-12) {
        const u = (z0 - z1) / (4 * curvature) + 0.5;
        if (u > 0 && u < 1) take(at(t0 + u * (t1 - t0)));
      }
    }
  }

  // Grid nodes inside the ring.
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, ring[2 * i]);
    maxX = Math.max(maxX, ring[2 * i]);
    minY = Math.min(minY, ring[2 * i + 1]);
    maxY = Math.max(maxY, ring[2 * i + 1]);
  }
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
        if (pointInRing(x, y, ring)) take(ground(x, y));
      }
    }
  }
  return { min, max };
}

/** Parameters t in (0, 1) where the segment a→b (one coordinate) crosses the grids' lattice lines. */
function gridCrossings(grids: readonly ElevationGrid[], a: number, b: number, axis: 'x' | 'y'): number[] {
  const out: number[] = [];
  if (a === b) return out;
  const lo = Math.min(a, b),
    hi = Math.max(a, b);
  for (const g of grids) {
    const start = axis === 'x' ? g.bbox.minX : g.bbox.minY;
    const end = axis === 'x' ? g.bbox.maxX : g.bbox.maxY;
    const step = (end - start) / ((axis === 'x' ? g.columns : g.rows) - 1);
    for (let k = Math.max(0, Math.ceil((lo - start) / step)); start + k * step <= Math.min(hi, end); k++) {
      const t = (start + k * step - a) / (b - a);
      if (t > 0 && t < 1) out.push(t);
    }
  }
  return out;
}
