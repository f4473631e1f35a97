import type { Footprint, Ring } from '../../types.ts';
import type { GroundSampler } from '../../terrain/ground-sampler.ts';
import type { DeckElevation } from '../types.ts';
import { pointInRing } from '../../ring.ts';
import { deckHeight } from '../deck-height.ts';

/**
 * How the ground pieces get their heights (docs/ground.md "Bridges, tunnels and heights"), shared
 * by the meshes and the outlines so that an outline lies exactly on the edge of its mesh:
 *
 * - no terrain (`ground` absent, or a sampler without grids): z = the sampler's flat height (0);
 * - terrain and `drape: true`: every vertex at ground(x, y), and edges split where they cross the
 *   lines of the draping lattice (the terrain grid's own lines, `ground.spacing` apart, or
 *   `maxEdge` apart), so a piece bends with the ground where the ground bends;
 * - terrain and `drape: false` (`disableSurfaceProjection`): not draped, but at the terrain's
 *   level: each mapped vertex of a piece (its outline's own vertices, nothing added) at ground(x, y),
 *   so every face is a plane between mapped vertices and the piece is as coarse as it was mapped.
 *   A flat plate per piece would be buried under the terrain or float over it wherever a big piece
 *   spans a hillside (hundreds of metres on a mountain's forest).
 * - a bridge deck (`deck`): never draped; z as `deckHeight` (deck-height.ts) gives it.
 */
export interface DrapeOptions {
  /** The shared ground sampler; absent = flat ground at z = 0. */
  ground?: GroundSampler;
  /** True: follow the terrain; false: mapped vertices on the terrain, nothing added (disableSurfaceProjection). */
  drape: boolean;
  /** Spacing of the draping lattice, metres (default: the terrain grid's spacing, `ground.spacing`). */
  maxEdge?: number;
}

/** Points closer than this along an edge (metres) are not split again: no slivers at corners. */
export const SPLIT_MIN_GAP = 0.05;

/** Lines x = ox + k·step and y = oy + k·step (k any integer): where draped edges are split. */
export interface DrapeLattice {
  ox: number;
  oy: number;
  step: number;
}

/** The lattice draped pieces follow, aligned with the first terrain grid; null when nothing bends (no terrain, flat ground, or not draping). */
export function drapeLattice(options: DrapeOptions): DrapeLattice | null {
  const { ground } = options;
  if (!options.drape || !ground || ground.grids.length === 0) return null;
  const step = options.maxEdge ?? ground.spacing;
  if (!(step > 0 && Number.isFinite(step))) return null;
  const g = ground.grids[0];
  return { ox: g.bbox.minX, oy: g.bbox.maxY, step };
}

/**
 * A coordinate on the millimetre grid. The pieces' own vertices are Clipper output on that grid, and
 * the points draping adds (edge splits, lattice nodes) are put on it too, so every plan vertex of a
 * mesh is exactly what the JSON writer prints (millimetres, local frame): a triangle that faces up
 * here still faces up, with the same area, in the response. A split point so moves off its straight
 * side by less than 0.71 mm, the same for both pieces along the side.
 */
export function snapToGrid(v: number): number {
  return Math.round(v * 1000) / 1000;
}

/**
 * Appends to `out` the points where segment a→b crosses lattice lines, in order from a to b,
 * endpoints excluded, none within SPLIT_MIN_GAP of an endpoint or of the previous point, on the
 * millimetre grid (snapToGrid). The points depend only on the unordered segment (computed from its
 * lexicographically smaller end), so two pieces sharing an edge split it at the very same points.
 */
export function pushSplits(ax: number, ay: number, bx: number, by: number, lattice: DrapeLattice, out: number[]): void {
  const swap = ax > bx || (ax === bx && ay > by);
  const px = swap ? bx : ax,
    py = swap ? by : ay;
  const dx = (swap ? ax : bx) - px,
    dy = (swap ? ay : by) - py;
  const length = Math.hypot(dx, dy);
  if (length < 2 * SPLIT_MIN_GAP) return;
  const { ox, oy, step } = lattice;
  const ts: number[] = [];
  if (dx !== 0) {
    const lo = Math.min(px, px + dx),
      hi = Math.max(px, px + dx);
    for (let k = Math.ceil((lo - ox) / step), end = Math.floor((hi - ox) / step); k <= end; k++) ts.push((ox + k * step - px) / dx);
  }
  if (dy !== 0) {
    const lo = Math.min(py, py + dy),
      hi = Math.max(py, py + dy);
    for (let k = Math.ceil((lo - oy) / step), end = Math.floor((hi - oy) / step); k <= end; k++) ts.push((oy + k * step - py) / dy);
  }
  if (ts.length === 0) return;
  ts.sort((a, b) => a - b);
  const gap = SPLIT_MIN_GAP / length;
  const start = out.length;
  let last = 0;
  for (const t of ts) {
    if (t - last < gap || 1 - t < gap) continue;
    out.push(snapToGrid(px + t * dx), snapToGrid(py + t * dy));
    last = t;
  }
  if (swap) reversePairs(out, start);
}

function reversePairs(a: number[], start: number): void {
  for (let i = start, j = a.length - 2; i < j; i += 2, j -= 2) {
    const x = a[i],
      y = a[i + 1];
    a[i] = a[j];
    a[i + 1] = a[j + 1];
    a[j] = x;
    a[j + 1] = y;
  }
}

/** A ring (or an open polyline when `closed` is false) with every edge split at the lattice lines. */
export function splitRing(ring: Ring, lattice: DrapeLattice | null, closed = true): Ring {
  if (!lattice) return ring.slice();
  const n = ring.length / 2;
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(ring[2 * i], ring[2 * i + 1]);
    if (!closed && i === n - 1) break;
    const j = (i + 1) % n;
    pushSplits(ring[2 * i], ring[2 * i + 1], ring[2 * j], ring[2 * j + 1], lattice, out);
  }
  return out;
}

export { deckHeight };

/**
 * The height function of one polygon of a piece, and the lattice its edges are split on (null =
 * not split: flat, deck or no terrain).
 */
export function pieceHeights(
  _footprint: Footprint,
  deck: DeckElevation | undefined,
  options: DrapeOptions,
): { z: (x: number, y: number) => number; lattice: DrapeLattice | null } {
  if (deck) return { z: (x, y) => deckHeight(deck, x, y), lattice: null };
  const { ground } = options;
  if (!ground) return { z: () => 0, lattice: null };
  if (ground.grids.length === 0) {
    const h = ground(0, 0);
    return { z: () => h, lattice: null };
  }
  if (!options.drape) return { z: ground, lattice: null };
  return { z: ground, lattice: drapeLattice(options) };
}

/**
 * Lowest ground under a polygon with holes, exact for the bilinear ground of the sampler's grids:
 * inside a cell the ground is bilinear, so its minimum over the polygon lies on a polygon edge
 * (quadratic between grid-line crossings: ends, crossings and the parabola's vertex are tried) or
 * at a grid node inside the polygon (not in a hole).
 */
export function lowestGroundUnder(ground: GroundSampler, footprint: Footprint): number {
  let min = lowestGroundAlong(ground, footprint.outer, true);
  for (const h of footprint.holes) min = Math.min(min, lowestGroundAlong(ground, h, true));
  const outer = footprint.outer;
  const [minX, minY, maxX, maxY] = ringBox(outer);
  const holeBoxes = footprint.holes.map(ringBox);
  const inHole = (x: number, y: number) =>
    footprint.holes.some((h, k) => {
      const b = holeBoxes[k];
      return x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3] && pointInRing(x, y, h);
    });
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
        if (!pointInRing(x, y, outer) || inHole(x, y)) continue;
        const z = ground(x, y);
        if (z < min) min = z;
      }
    }
  }
  return min;
}

function ringBox(ring: Ring): [number, number, number, number] {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (let i = 0; i < ring.length; i += 2) {
    minX = Math.min(minX, ring[i]);
    maxX = Math.max(maxX, ring[i]);
    minY = Math.min(minY, ring[i + 1]);
    maxY = Math.max(maxY, ring[i + 1]);
  }
  return [minX, minY, maxX, maxY];
}

/**
 * Lowest ground along a polyline (closed: a ring), exact for the bilinear ground: along a segment the
 * ground is quadratic between grid-line crossings, so its ends, the crossings and each parabola's
 * vertex are tried.
 */
export function lowestGroundAlong(ground: GroundSampler, points: Ring, closed: boolean): number {
  let min = Infinity;
  const n = points.length / 2;
  if (n === 1) return ground(points[0], points[1]);
  for (let i = 0; i < (closed ? n : n - 1); i++) {
    const j = (i + 1) % n;
    const ax = points[2 * i],
      ay = points[2 * i + 1],
      bx = points[2 * j],
      by = points[2 * j + 1];
    const ts = [0, 1];
    for (const g of ground.grids) {
      pushCrossings(ax, bx, g.bbox.minX, (g.bbox.maxX - g.bbox.minX) / (g.columns - 1), ts);
      pushCrossings(ay, by, g.bbox.minY, (g.bbox.maxY - g.bbox.minY) / (g.rows - 1), ts);
    }
    ts.sort((a, b) => a - b);
    const at = (t: number) => ground(ax + (bx - ax) * t, ay + (by - ay) * t);
    for (let k = 0; k < ts.length; k++) {
      const t0 = ts[k],
        z0 = at(t0);
      if (z0 < min) min = z0;
      if (k + 1 >= ts.length || ts[k + 1] - t0 < 1e-12) continue;
      const t1 = ts[k + 1],
        z1 = at(t1),
        zm = at((t0 + t1) / 2);
      // parabola through the three samples: a minimum inside the span when it opens upwards
      const curvature = z0 - 2 * zm + z1;
      if (curvature > 1e-12) {
        const u = (z0 - z1) / (4 * curvature) + 0.5;
        if (u > 0 && u < 1) min = Math.min(min, at(t0 + u * (t1 - t0)));
      }
    }
  }
  return min;
}

/** Parameters t in (0, 1) where a→b (one coordinate) crosses lines start + k·step. */
function pushCrossings(a: number, b: number, start: number, step: number, out: number[]): void {
  if (a === b || !(step > 0)) return;
  const lo = Math.min(a, b),
    hi = Math.max(a, b);
  for (let k = Math.ceil((lo - start) / step), end = Math.floor((hi - start) / step); k <= end; k++) {
    const t = (start + k * step - a) / (b - a);
    if (t > 0 && t < 1) out.push(t);
  }
}
