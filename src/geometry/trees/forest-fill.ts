import Flatbush from 'flatbush';
import { pointInRing, ringArea } from '../ring.ts';
import type { BBox, Footprint } from '../types.ts';
import type { FillRule } from './fill-areas.ts';
import { hashInts, unit } from './hash.ts';

/**
 * Procedural forest fill in one fixed frame of the globe (frame/stable-frame.ts): a global grid of
 * FILL_CELL-metre cells, at most one plant per cell, jittered inside the cell but FILL_MARGIN away
 * from its sides — so any two plants stand ≥ 2·FILL_MARGIN apart (a Poisson-disc-like hard core)
 * and each cell decides alone. The jitter and whether a cell is planted are hashes of the cell's
 * indices and the frame's salt: the same ground gets the same trees whatever box asks for it, so
 * tiles and requests agree without talking to each other.
 *
 *   const sites = forestFill(tileBoxInFrame, areas, { salt, blocked: (x, y) => blocker.blocked(x, y) });
 */
export const FILL_CELL = 6;
export const FILL_MARGIN = 1.5;
/** Guaranteed distance between two procedural plants, metres. */
export const FILL_MIN_SPACING = 2 * FILL_MARGIN;

export interface FillArea {
  /** OSM id, for the descriptor and to settle overlaps. */
  id: string;
  rule: FillRule;
  /** Valid footprints in the fill frame. */
  footprints: Footprint[];
  leafType?: string;
  leafCycle?: string;
}

export interface FillSite {
  x: number;
  y: number;
  /** Global grid cell. */
  i: number;
  j: number;
  area: FillArea;
}

export interface FillOptions {
  /** Distinguishes the grids of different frames (the 0.05° cell indices). */
  salt: number;
  /** A point where nothing may grow (buildings, roads, water, hard ground, near surveyed trees). */
  blocked?(x: number, y: number): boolean;
}

/** Every plant of the fill whose cell meets `box` (a cell's plant may lie just outside it). */
export function forestFill(box: BBox, areas: readonly FillArea[], opts: FillOptions): FillSite[] {
  if (areas.length === 0) return [];
  const entries: { area: FillArea; f: Footprint; size: number }[] = [];
  for (const area of areas) for (const f of area.footprints) entries.push({ area, f, size: footprintsArea(area.footprints) });
  if (entries.length === 0) return [];
  const index = new Flatbush(entries.length);
  for (const e of entries) {
    const b = ringBox(e.f.outer);
    index.add(b.minX, b.minY, b.maxX, b.maxY);
  }
  index.finish();
  const out: FillSite[] = [];
  const i0 = Math.floor(box.minX / FILL_CELL), i1 = Math.floor(box.maxX / FILL_CELL);
  const j0 = Math.floor(box.minY / FILL_CELL), j1 = Math.floor(box.maxY / FILL_CELL);
  for (let j = j0; j <= j1; j++) {
    for (let i = i0; i <= i1; i++) {
      const cx = i * FILL_CELL, cy = j * FILL_CELL;
      const hits = index.search(cx, cy, cx + FILL_CELL, cy + FILL_CELL);
      if (hits.length === 0) continue;
      const h = hashInts(i, j, opts.salt);
      const jitterX = unit(hashInts(h, 1)), jitterY = unit(hashInts(h, 2));
      const area = containing(entries, hits, cx + FILL_CELL / 2, cy + FILL_CELL / 2, cx, cy, jitterX, jitterY);
      if (!area) continue;
      const { rule } = area.area;
      const span = FILL_CELL - 2 * FILL_MARGIN;
      const x = rule.rows ? cx + FILL_CELL / 2 : cx + FILL_MARGIN + jitterX * span;
      const y = rule.rows ? cy + FILL_CELL / 2 : cy + FILL_MARGIN + jitterY * span;
      if (area.x !== x || area.y !== y) continue; // the area was found at the other candidate point
      if (unit(hashInts(h, 3)) >= rule.keep) continue;
      if (opts.blocked?.(x, y)) continue;
      out.push({ x, y, i, j, area: area.area });
    }
  }
  return out;
}

/**
 * The area holding the cell's plant. A cell's plant is jittered unless its area plants rows, which
 * depends on the area: try the jittered point first, then the centre for row areas. Among
 * overlapping areas the smallest wins (then the lower id), like ties of the ground.
 */
function containing(
  entries: readonly { area: FillArea; f: Footprint; size: number }[], hits: number[],
  centreX: number, centreY: number, cx: number, cy: number, jx: number, jy: number,
): { area: FillArea; x: number; y: number } | null {
  const span = FILL_CELL - 2 * FILL_MARGIN;
  const jittered: [number, number] = [cx + FILL_MARGIN + jx * span, cy + FILL_MARGIN + jy * span];
  const pick = (x: number, y: number, rows: boolean) => {
    let best: { area: FillArea; f: Footprint; size: number } | null = null;
    for (const h of hits) {
      const e = entries[h];
      if (e.area.rule.rows !== rows || !inFootprint(x, y, e.f)) continue;
      if (!best || e.size < best.size || (e.size === best.size && e.area.id < best.area.id)) best = e;
    }
    return best;
  };
  const j = pick(jittered[0], jittered[1], false);
  const r = pick(centreX, centreY, true);
  // rows (orchards) and free fill overlapping: the smaller area wins the cell
  const best = j && r ? (r.size < j.size || (r.size === j.size && r.area.id < j.area.id) ? r : j) : j ?? r;
  if (!best) return null;
  return best === r ? { area: r.area, x: centreX, y: centreY } : { area: best.area, x: jittered[0], y: jittered[1] };
}

function inFootprint(x: number, y: number, f: Footprint): boolean {
  return pointInRing(x, y, f.outer) && !f.holes.some((h) => pointInRing(x, y, h));
}

function footprintsArea(fs: readonly Footprint[]): number {
  let a = 0;
  for (const f of fs) a += ringArea(f.outer) - f.holes.reduce((s, h) => s + ringArea(h), 0);
  return a;
}

function ringBox(r: readonly number[]): BBox {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let k = 0; k < r.length; k += 2) {
    minX = Math.min(minX, r[k]); maxX = Math.max(maxX, r[k]);
    minY = Math.min(minY, r[k + 1]); maxY = Math.max(maxY, r[k + 1]);
  }
  return { minX, minY, maxX, maxY };
}
