import Flatbush from 'flatbush';
import { flatBounds, ringArea } from '../ring.ts';
import { FootprintLocator } from '../ring-locator.ts';
import type { BBox, Footprint } from '../types.ts';
import type { FillRule } from './fill-areas.ts';
import { hashInts, unit } from './hash.ts';

/**
 * Procedural forest fill in one fixed frame of the globe (frame/stable-frame.ts), as a Poisson-disc
 * (Matérn type II hard-core) process that needs no neighbour's data: every CANDIDATE_CELL-metre
 * cell of a global grid holds one candidate point, jittered anywhere in the cell, with a priority;
 * a candidate survives when no candidate of higher priority lies within FILL_MIN_SPACING — so any
 * two plants stand at least that far apart, without a grid's rows. Candidates, jitter and
 * priorities are hashes of the cell's indices and the frame's salt, independent of the areas: the
 * same ground gets the same trees whatever box asks for it, so tiles and requests agree without
 * talking to each other. A survivor is planted when it lies in a fill area, the area's `keep`
 * draw says so and nothing blocks it. Orchards (`rows`) are planted at the centres of a FILL_CELL
 * grid instead, and free candidates keep FILL_MIN_SPACING from those.
 *
 *   const sites = forestFill(tileBoxInFrame, areas, { salt, blocked: (x, y) => blocker.blocked(x, y) });
 */
/** Row spacing of orchards, metres. */
export const FILL_CELL = 6;
/** Side of the candidate cells of free fill, metres (survivors: ≈ 0.47 per cell, ≈ 290 per ha). */
export const CANDIDATE_CELL = 4;
/** Plants keep this far inside their frame's 0.05° cell, so two frames' plants keep FILL_MIN_SPACING at their seam. */
export const FILL_MARGIN = 1.5;
/** Guaranteed distance between two procedural plants, metres (the hard core). */
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
  const entries: Entry[] = [];
  for (const area of areas) for (const f of area.footprints) entries.push(new Entry(area, f, footprintsArea(area.footprints)));
  if (entries.length === 0) return [];
  return new Fill(entries, opts).plant(box);
}

/**
 * One fill run. A class, not closures made per call: V8 keeps a closure's optimised code only while
 * a closure of it lives, so per-call closures would be compiled again after every full collection.
 */
class Fill {
  private readonly index: Flatbush;
  /** No orchard among the areas: no cell holds a row plant, and the pass over every cell is skipped. */
  private readonly orchards: boolean;
  private readonly rowAt = new Map<string, boolean>();
  private readonly out: FillSite[] = [];

  constructor(
    private readonly entries: readonly Entry[],
    private readonly opts: FillOptions,
  ) {
    this.orchards = entries.some((e) => e.area.rule.rows);
    const index = new Flatbush(entries.length);
    for (const e of entries) {
      const b = flatBounds(e.f.outer);
      index.add(b.minX, b.minY, b.maxX, b.maxY);
    }
    index.finish();
    this.index = index;
  }

  plant(box: BBox): FillSite[] {
    const { out, opts } = this;
    // orchards: the centres of the FILL_CELL grid inside a rows area
    if (this.orchards)
      for (let j = Math.floor(box.minY / FILL_CELL); j <= Math.floor(box.maxY / FILL_CELL); j++) {
        for (let i = Math.floor(box.minX / FILL_CELL); i <= Math.floor(box.maxX / FILL_CELL); i++) {
          if (!this.rowPlant(i, j)) continue;
          const x = (i + 0.5) * FILL_CELL,
            y = (j + 0.5) * FILL_CELL,
            e = this.pick(x, y, true)!;
          if (unit(hashInts(hashInts(i, j, opts.salt), 3)) >= e.area.rule.keep) continue;
          if (opts.blocked?.(x, y)) continue;
          out.push({ x, y, i, j, area: e.area });
        }
      }
    // free fill: surviving candidates of the CANDIDATE_CELL grid, visited only under the free areas'
    // boxes (most of a tile is no fill area; the survival test is the costly part)
    const seen = new Set<number>();
    const i0 = Math.floor(box.minX / CANDIDATE_CELL),
      j0 = Math.floor(box.minY / CANDIDATE_CELL);
    const columns = Math.floor(box.maxX / CANDIDATE_CELL) - i0 + 1;
    for (const e of this.entries) {
      if (e.area.rule.rows) continue;
      const b = flatBounds(e.f.outer);
      for (
        let j = Math.max(j0, Math.floor(b.minY / CANDIDATE_CELL));
        j <= Math.min(Math.floor(box.maxY / CANDIDATE_CELL), Math.floor(b.maxY / CANDIDATE_CELL));
        j++
      ) {
        for (let i = Math.max(i0, Math.floor(b.minX / CANDIDATE_CELL)); i <= Math.min(i0 + columns - 1, Math.floor(b.maxX / CANDIDATE_CELL)); i++) {
          const cell = (j - j0) * columns + (i - i0);
          if (seen.has(cell)) continue;
          seen.add(cell);
          this.freePlant(i, j);
        }
      }
    }
    out.sort(bySiteOrder);
    return out;
  }

  private pick(x: number, y: number, rows: boolean): Entry | null {
    return containing(this.entries, this.index.search(x, y, x, y), x, y, rows);
  }

  private rowPlant(i: number, j: number): boolean {
    const key = `${i},${j}`;
    let v = this.rowAt.get(key);
    if (v === undefined) this.rowAt.set(key, (v = this.pick((i + 0.5) * FILL_CELL, (j + 0.5) * FILL_CELL, true) !== null));
    return v;
  }

  private freePlant(i: number, j: number): void {
    const opts = this.opts;
    // cheapest tests first (the answer does not depend on their order): in an area, its keep
    // draw (a park keeps one in ten), then the neighbours' candidates
    const c = candidate(i, j, opts.salt);
    const e = this.pick(c.x, c.y, false);
    if (!e || unit(hashInts(c.h, 3)) >= e.area.rule.keep) return;
    if (!survives(i, j, c, opts.salt)) return;
    if (this.orchards && this.nearRowPlant(c.x, c.y)) return;
    if (opts.blocked?.(c.x, c.y)) return;
    this.out.push({ x: c.x, y: c.y, i, j, area: e.area });
  }

  /** Whether an orchard plant (a FILL_CELL centre in a rows area) stands within FILL_MIN_SPACING. */
  private nearRowPlant(x: number, y: number): boolean {
    const i = Math.floor(x / FILL_CELL),
      j = Math.floor(y / FILL_CELL);
    for (let dj = -1; dj <= 1; dj++) {
      for (let di = -1; di <= 1; di++) {
        const cx = (i + di + 0.5) * FILL_CELL,
          cy = (j + dj + 0.5) * FILL_CELL;
        if (Math.hypot(cx - x, cy - y) < FILL_MIN_SPACING && this.rowPlant(i + di, j + dj)) return true;
      }
    }
    return false;
  }
}

/** Row by row, cell by cell, an orchard plant before a free one in the same cell. */
function bySiteOrder(a: FillSite, b: FillSite): number {
  return a.j - b.j || a.i - b.i || (a.area.rule.rows ? 0 : 1) - (b.area.rule.rows ? 0 : 1);
}

interface Candidate {
  x: number;
  y: number;
  h: number;
  priority: number;
}

function candidate(i: number, j: number, salt: number): Candidate {
  const h = hashInts(i, j, salt);
  return { x: (i + unit(hashInts(h, 1))) * CANDIDATE_CELL, y: (j + unit(hashInts(h, 2))) * CANDIDATE_CELL, h, priority: unit(hashInts(h, 4)) };
}

/** Matérn II: no candidate of higher priority (ties: the lower cell) within FILL_MIN_SPACING. */
function survives(i: number, j: number, c: Candidate, salt: number): boolean {
  const reach = Math.ceil(FILL_MIN_SPACING / CANDIDATE_CELL);
  for (let dj = -reach; dj <= reach; dj++) {
    for (let di = -reach; di <= reach; di++) {
      if (di === 0 && dj === 0) continue;
      const o = candidate(i + di, j + dj, salt);
      if (Math.hypot(o.x - c.x, o.y - c.y) >= FILL_MIN_SPACING) continue;
      if (o.priority > c.priority || (o.priority === c.priority && (dj < 0 || (dj === 0 && di < 0)))) return false;
    }
  }
  return true;
}

/** One footprint of a fill area (its locator builds its bands on the first point asked: most footprints are never asked). */
class Entry {
  readonly locator: FootprintLocator;

  constructor(
    readonly area: FillArea,
    readonly f: Footprint,
    readonly size: number,
  ) {
    this.locator = new FootprintLocator(f);
  }
}

/** The area holding a point among those of the kind (rows or free): the smallest wins, then the lower id, like ties of the ground. */
function containing(entries: readonly Entry[], hits: number[], x: number, y: number, rows: boolean): Entry | null {
  let best: Entry | null = null;
  for (const h of hits) {
    const e = entries[h];
    if (e.area.rule.rows !== rows || !e.locator.contains(x, y)) continue;
    if (!best || e.size < best.size || (e.size === best.size && e.area.id < best.area.id)) best = e;
  }
  return best;
}

function footprintsArea(fs: readonly Footprint[]): number {
  let a = 0;
  for (const f of fs) a += ringArea(f.outer) - f.holes.reduce((s, h) => s + ringArea(h), 0);
  return a;
}
