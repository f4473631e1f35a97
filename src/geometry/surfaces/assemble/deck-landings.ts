import { Clipper, ClipType, FillRule, type Path64, type Paths64 } from 'clipper2-ts';
import type { Footprint } from '../../types.ts';
import type { SurfaceArea } from '../types.ts';
import { deckHeight } from '../deck-height.ts';
import { CLIPPER_SCALE } from '../../planar/clipper-paths.ts';
import { booleanPieces, pathsOf } from '../../planar/pieces.ts';

/** Where a deck's top is within this of the ground (above or below), metres, the ground under it is cut: the deck's top is the ground there. */
export const LANDING_CLEARANCE = 0.1;

/** The landings are found on square cells this wide, metres, aligned with the frame's origin (so neighbouring tiles find the same cells). */
export const LANDING_CELL = 0.5;

/**
 * The landings of bridge decks (docs/ground.md "Bridges, tunnels and heights"): the parts of the
 * deck pieces (`deck` set) whose top lies within LANDING_CLEARANCE of the ground under them —
 * near an abutment, where the ramp leaves the ground, and wherever a deck otherwise runs at the
 * ground's level. There the deck's top and the ground under it would be two upward faces a few
 * centimetres apart, drawn in turn by a renderer (z-fighting) and crossing each other where the
 * ground slopes across the deck; cut out of the ground, the slab's top replaces it.
 *
 * Found on cells of LANDING_CELL: a cell counts when the deck's top at one of its corners or its
 * centre is within the clearance of `ground` there (both are piecewise linear, so between the
 * samples of a cell that does not count they stay several centimetres apart unless the ground
 * folds sharply inside it). The counted cells, united, are cut to the deck piece, so a landing
 * never reaches past its deck: a hole it leaves in the ground is covered by the deck's top.
 *
 * @example
 * const cutOut = [...buildingCutOuts, ...deckLandings(roadAreas, tile.ground ?? (() => 0))];
 */
export function deckLandings(areas: readonly SurfaceArea[], ground: (x: number, y: number) => number): Footprint[] {
  const out: Footprint[] = [];
  for (const area of areas) {
    if (!area.deck || area.footprints.length === 0) continue;
    const deck = area.deck;
    const near = (x: number, y: number) => Math.abs(deckHeight(deck, x, y) - ground(x, y)) < LANDING_CLEARANCE;
    const paths = pathsOf(area.footprints);
    if (paths.length === 0) continue;
    const cells = landingCells(paths, near);
    if (cells.length === 0) continue;
    for (const f of booleanPieces(ClipType.Intersection, Clipper.union(cells, FillRule.NonZero), paths)) out.push(f);
  }
  return out;
}

/**
 * The cells where `near` holds at a corner or the centre, merged along each row into rectangles.
 * Only the cells over the paths' span in each row are sampled (a long deck running diagonally
 * has a box hundreds of times its area).
 */
function landingCells(paths: Paths64, near: (x: number, y: number) => boolean): Paths64 {
  const step = LANDING_CELL;
  const unit = step * CLIPPER_SCALE;
  const box = Clipper.getBoundsPaths(paths);
  const r0 = Math.floor(box.top / unit),
    r1 = Math.ceil(box.bottom / unit);
  // each row's span of the sides (a band crossing a polygon crosses its sides at both ends)
  const from = new Float64Array(r1 - r0).fill(Infinity),
    to = new Float64Array(r1 - r0).fill(-Infinity);
  for (const path of paths)
    for (let i = 0; i < path.length; i++) {
      const a = path[i],
        b = path[(i + 1) % path.length];
      const lo = Math.max(Math.floor(Math.min(a.y, b.y) / unit), r0),
        hi = Math.min(Math.ceil(Math.max(a.y, b.y) / unit), r1);
      for (let r = lo; r < Math.max(hi, lo + 1) && r < r1; r++) {
        // the side's x where it crosses the band [r, r + 1) (its ends where they are inside)
        const y0 = Math.max(r * unit, Math.min(a.y, b.y)),
          y1 = Math.min((r + 1) * unit, Math.max(a.y, b.y));
        const xAt = (y: number) => (a.y === b.y ? a.x : a.x + ((b.x - a.x) * (y - a.y)) / (b.y - a.y));
        const xs = a.y === b.y ? [a.x, b.x] : [xAt(y0), xAt(y1)];
        from[r - r0] = Math.min(from[r - r0], xs[0], xs[1]);
        to[r - r0] = Math.max(to[r - r0], xs[0], xs[1]);
      }
    }
  // the corners, each sampled once
  const corners = new Map<number, boolean>();
  const corner = (c: number, r: number) => {
    const key = c * 4194304 + r;
    let v = corners.get(key);
    if (v === undefined) corners.set(key, (v = near(c * step, r * step)));
    return v;
  };
  const out: Paths64 = [];
  for (let r = r0; r < r1; r++) {
    if (!(from[r - r0] <= to[r - r0])) continue;
    const c0 = Math.floor(from[r - r0] / unit),
      c1 = Math.max(Math.ceil(to[r - r0] / unit), c0 + 1);
    let run = Number.NaN; // the first column of the cells counted in this row so far (none: NaN)
    for (let c = c0; c <= c1; c++) {
      const counts = c < c1 && (corner(c, r) || corner(c + 1, r) || corner(c, r + 1) || corner(c + 1, r + 1) || near((c + 0.5) * step, (r + 0.5) * step));
      if (counts && Number.isNaN(run)) run = c;
      if (!counts && !Number.isNaN(run)) {
        out.push(rectangle(run * step, r * step, c * step, (r + 1) * step));
        run = Number.NaN;
      }
    }
  }
  return out;
}

/** A counter-clockwise rectangle on the grid. */
function rectangle(x0: number, y0: number, x1: number, y1: number): Path64 {
  const [a, b, c, d] = [x0, y0, x1, y1].map((v) => Math.round(v * CLIPPER_SCALE));
  return [
    { x: a, y: b },
    { x: c, y: b },
    { x: c, y: d },
    { x: a, y: d },
  ];
}
