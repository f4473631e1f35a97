import type { Footprint, Ring } from '../../types.ts';
import type { GroundSampler } from '../../terrain/ground-sampler.ts';
import type { DeckElevation } from '../types.ts';
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

/**
 * Lines x = ox + k·step, y = oy + k·step and x − y = ox − oy + k·step (k any integer): the edges of
 * the terrain's triangles (ground-sampler.ts), where draped edges are split.
 */
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
  // the cells' SW–NE diagonals, x − y = (ox − oy) + k·step: the terrain is two flat triangles a cell
  const dd = dx - dy;
  if (dd !== 0) {
    const d0 = px - py - (ox - oy);
    const lo = Math.min(d0, d0 + dd),
      hi = Math.max(d0, d0 + dd);
    for (let k = Math.ceil(lo / step), end = Math.floor(hi / step); k <= end; k++) ts.push((k * step - d0) / dd);
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
