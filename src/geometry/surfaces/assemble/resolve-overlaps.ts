import { Clipper, ClipType, FillRule, PolyTree64, type Paths64, type PolyPath64, type Rect64 } from 'clipper2-ts';
import type { Footprint } from '../../types.ts';
import type { SurfaceArea } from '../types.ts';
import { BASE_GROUND_PRIORITY } from '../priority.ts';
import { clipToBox, cutInto, grown, indexOf, inside, overlappingGroups, overlaps, search } from '../../planar/boxes.ts';
import { cleanBoolean, HAIRLINE } from './clean-pieces.ts';
import { gridFootprints, isAxisRectangle, pathsOf, piecePaths, totalArea } from '../../planar/pieces.ts';
import { mergeSlivers, uniteWithBase } from './slivers.ts';
import { sideIndex } from './side-index.ts';
import { interiorsDisjoint } from './disjoint.ts';
import { withoutSharedSides } from './shared-sides.ts';
import { polygonPaths, treePolygons } from '../../planar/poly-tree.ts';
import { baseGround, splitFiller } from './base-ground.ts';
import { PAVED_FILLER_DESCRIPTOR } from '../filler/paved-zone.ts';

export interface ResolveOverlapsOptions {
  /** Building footprints and the landings of bridge decks (deck-landings.ts): cut out of every ground-level piece (not out of bridge decks). */
  cutOut: readonly Footprint[];
  /** The region the ground covers: the tile's square, or tile ∩ request polygon. */
  clip: Footprint;
  /** Pieces (single polygons) smaller than this are dropped, m². Default 0.05. */
  minArea?: number;
  /** Parts of a piece narrower than this are dropped (morphological opening), metres. Default 0.05. */
  minWidth?: number;
  /** Where the base ground is paved rather than grass (surfaces/filler: near façades, courtyards, verges in built-up land); none: all grass. */
  pavedFiller?: readonly Footprint[];
}

export const RESOLVE_OVERLAPS_DEFAULTS = { minArea: 0.05, minWidth: 0.05 } as const;

/** Descriptor of the inferred base ground (priority.ts): whatever no mapped area covers, outside the paved filler. */
export const BASE_GROUND_DESCRIPTOR = { type: 'grass', inferred: true } as const;

/**
 * Makes the ground one set of non-overlapping pieces, so nothing z-fights (docs/ground.md "Which
 * kind wins where areas overlap").
 *
 * Precedence: every ground-level area (no `deck`) is clipped to `clip`, and from it are subtracted
 * the building footprints and every area that takes precedence over it: higher `priority` first
 * (surfaces/priority.ts); on equal priority the smaller area (its mapped area before clipping), then
 * the lower `descriptor.id` (compared as strings), then the earlier in the input — so the answer
 * never depends on query order as long as ids differ. Areas are done in that order and each is cut
 * by the *pieces* kept of the areas before it: the same ground as the mapped areas, except that a
 * sliver the opening took off a higher area goes to the next area covering it.
 *
 * Slivers: what is left of an area is opened — parts narrower than `minWidth` (5 cm) and polygons
 * under `minArea` (0.05 m²) go. The base ground is then `clip − buildings − every kept piece`,
 * opened the same way, as kind `grass` with priority BASE_GROUND_PRIORITY and descriptor
 * `{type: 'grass', inferred: true}`. What the opening takes off the base ground (thin leftovers
 * between pieces, tiny islands) is not thrown away — that would leave cracks — but merged into the
 * touching piece of highest precedence (a road a few centimetres wider rather than edged by a
 * hairline of grass); a sliver touching no piece (between two buildings, along the clip) is united
 * with the base ground again. Where `pavedFiller` covers it, the base ground is `pavement` with
 * `inferred: true` instead (base-ground.ts splitFiller): the filler's kind from its context.
 *
 * Exactness: Clipper2 works on the millimetre grid, and the pieces share their boundaries vertex for
 * vertex, except where Clipper puts a crossing point of two sides on the grid (it moves by up to a
 * millimetre): the sides into that point tilt, leaving a wedge less than a millimetre wide between
 * the piece and its neighbour (or the clip). Such wedges are the only overlaps and gaps: area at
 * most ~0.5 mm × the length of the side (up to ~0.01 m² along a 100 m side), nowhere 2 mm wide —
 * below the output's millimetre precision. Wedges left over as slivers are dropped as noise rather
 * than merged. A piece whose sides Clipper left crossing (it happens on millimetre-sized features)
 * is rebuilt (planar/pieces.ts), so every piece is a valid polygon.
 *
 * Speed: areas of one `disjointSet` (the road pieces, already resolved among themselves) are not
 * cut by each other — what is kept of one lies within its mapped footprint, so it still does not
 * overlap the others; each area is differenced only against the cutters whose boxes overlap its own (Flatbush),
 * cut to its box first and united by the NonZero fill rule in the same operation; the kept pieces
 * are disjoint, so the sweep sees no crossings among the cutters (mapped areas overlap each other
 * all the time).
 *
 * Bridge decks (`deck`) float above the ground: they are only clipped to `clip` (and opened), and
 * neither cut nor are cut by anything here (where a deck lands on the ground, its landing comes
 * in `cutOut`: deck-landings.ts).
 *
 * Returns the surviving areas in input order with their new footprints (same kind, priority,
 * descriptor and deck), then the paved base ground and the grass base ground (one area each, when any is left). Footprints are valid
 * polygons with holes on the millimetre grid: outer counter-clockwise, holes clockwise, no crossing
 * sides (rings may touch at single vertices, as Clipper2 writes them).
 *
 * @example
 * const pieces = resolveOverlaps([...roadAreas, ...landCover], { cutOut: buildingFootprints, clip: tileSquare });
 */
export function resolveOverlaps(areas: readonly SurfaceArea[], options: ResolveOverlapsOptions): SurfaceArea[] {
  const minArea = options.minArea ?? RESOLVE_OVERLAPS_DEFAULTS.minArea;
  const minWidth = options.minWidth ?? RESOLVE_OVERLAPS_DEFAULTS.minWidth;
  const clipPaths = pathsOf([options.clip]);
  if (clipPaths.length === 0) return [];
  const clip: Clip = { paths: clipPaths, bounds: Clipper.getBoundsPaths(clipPaths), isBox: isAxisRectangle(options.clip) };

  // Buildings that reach into the clip, united (outlines and parts overlap: their crossings are
  // then found once, not in every area's sweep), one cutter per block, indexed by box.
  const buildingPaths = buildingBlocks(options.cutOut, clip.bounds);
  const buildingBounds = buildingPaths.map((p) => Clipper.getBoundsPaths(p));
  const buildingIndex = indexOf(buildingBounds);

  // Ground-level areas: paths, boxes and their precedence rank (0 = wins over everything).
  const ground: number[] = [];
  const decks: number[] = [];
  for (let i = 0; i < areas.length; i++) (areas[i].deck ? decks : ground).push(i);
  // loops, not map: a callback is a closure whose optimised code V8 drops at every full collection
  const paths: Paths64[] = [];
  const bounds: (Rect64 | null)[] = [];
  for (const i of ground) {
    const p = pathsOf(areas[i].footprints);
    paths.push(p);
    bounds.push(p.length ? Clipper.getBoundsPaths(p) : null);
  }
  const rank = precedence(areas, ground);
  const order = Array.from(rank.keys()).sort((p, q) => rank[p] - rank[q]);
  const areaIndex = indexOf(bounds);

  // Areas in order of precedence, each cut by the buildings and by the pieces already kept of the
  // areas before it whose boxes overlap its own. The kept pieces are disjoint, so Clipper's sweep
  // sees no crossings among the cutters (the mapped areas overlap one another all the time), and
  // each cutter is first cut to the area's box.
  const kept: (Footprint[] | null)[] = new Array(ground.length).fill(null);
  const keptPaths: (Paths64 | null)[] = new Array(ground.length).fill(null);
  const keptBounds: (Rect64 | null)[] = new Array(ground.length).fill(null);
  for (const k of order) {
    const b = bounds[k];
    if (!b || !overlaps(b, clip.bounds)) continue;
    const subject = clipped(paths[k], b, clip);
    if (subject.length === 0) continue;
    const box = grown(b, 1);
    const cutters: Paths64 = [];
    // a small area leaves out the cutters that only touch it (disjoint.ts; a stretch cut along the
    // clip's side and doubled back only makes the test more cautious)
    const test = sidesOf(subject) <= DISJOINT_TEST_SIDES;
    for (const j of search(buildingIndex, b)) addCutter(box, buildingPaths[j], buildingBounds[j], test ? subject : null, cutters);
    const set = areas[ground[k]].disjointSet;
    for (const j of search(areaIndex, b)) {
      if (rank[j] >= rank[k] || !keptPaths[j] || (set !== undefined && areas[ground[j]].disjointSet === set)) continue;
      addCutter(box, keptPaths[j]!, keptBounds[j]!, test ? subject : null, cutters);
    }
    // A single-polygon area inside the clip that nothing cuts keeps its mapped footprint (on the
    // grid); anything else is rebuilt by Clipper, its polygons opened where they have thin parts.
    const pieces =
      cutters.length === 0 && subject === paths[k] && areas[ground[k]].footprints.length === 1
        ? gridFootprints(subject)
        : cutArea(subject, cutters, minWidth, minArea, clip.bounds);
    if (pieces.length > 0) {
      kept[k] = pieces;
      keptPaths[k] = piecePaths(pieces);
      keptBounds[k] = Clipper.getBoundsPaths(keptPaths[k]!);
    }
  }

  // The base ground: what neither buildings nor any kept piece cover; its polygons with thin parts
  // opened, and what that takes off (less rounding noise, see NOISE_WIDTH) merged into the pieces.
  const covered: Paths64 = [];
  for (const b of buildingPaths) for (const p of b) covered.push(p);
  for (const p of keptPaths) if (p) for (const q of p) covered.push(q);
  const removed: Paths64 = [];
  const sides = sideIndex(kept);
  let base = baseGround(clipPaths, clip.bounds, covered, minWidth, minArea, removed, sides);
  const slivers = removed.length ? cleanBoolean(ClipType.Union, removed, null, NOISE_WIDTH, 0) : [];
  if (slivers.length > 0) base = uniteWithBase(base, mergeSlivers(slivers, kept, rank, sides));
  const paved = options.pavedFiller?.length ? splitFiller(base, pathsOf(options.pavedFiller), minWidth, minArea, clip.bounds) : null;
  if (paved) base = paved.grass;

  const out: SurfaceArea[] = [];
  const slot = new Int32Array(areas.length).fill(-1);
  ground.forEach((i, k) => {
    slot[i] = k;
  });
  for (let i = 0; i < areas.length; i++) {
    const area = areas[i];
    if (area.deck) {
      const pieces = deckPieces(area, clip, minWidth, minArea);
      if (pieces.length > 0) out.push({ ...area, footprints: pieces });
      continue;
    }
    const pieces = kept[slot[i]];
    if (pieces && pieces.length > 0) out.push({ ...area, footprints: pieces });
  }
  if (paved && paved.paved.length > 0) {
    out.push({ kind: 'pavement', priority: BASE_GROUND_PRIORITY, footprints: paved.paved, descriptor: { ...PAVED_FILLER_DESCRIPTOR } });
  }
  if (base.length > 0) {
    out.push({ kind: 'grass', priority: BASE_GROUND_PRIORITY, footprints: base, descriptor: { ...BASE_GROUND_DESCRIPTOR } });
  }
  return out;
}

/**
 * The building footprints that reach into the box, those whose boxes overlap united (outlines and
 * their parts overlap: the crossings are then found once, not in every area's sweep): the paths
 * (outer, then holes) of each block. Valid footprints on their own are used as they are.
 */
function buildingBlocks(cutOut: readonly Footprint[], box: Rect64): Paths64[] {
  const paths: Paths64[] = [];
  const bounds: Rect64[] = [];
  for (const f of cutOut) {
    const p = pathsOf([f]);
    if (p.length === 0) continue;
    const b = Clipper.getBoundsPaths(p);
    if (!overlaps(b, box)) continue;
    paths.push(p);
    bounds.push(b);
  }
  if (paths.length === 0) return [];
  const groups = overlappingGroups(bounds);
  const out: Paths64[] = [];
  for (const group of groups) {
    if (group.length === 1) {
      out.push(paths[group[0]]);
      continue;
    }
    const all: Paths64 = [];
    for (const i of group) for (const q of paths[i]) all.push(q);
    const tree = new PolyTree64();
    Clipper.booleanOpWithPolyTree(ClipType.Union, withoutSharedSides(all), null, tree, FillRule.NonZero);
    blocksOf(tree, out);
  }
  return out;
}

function blocksOf(node: PolyPath64, out: Paths64[]): Paths64[] {
  for (const polygon of treePolygons(node)) out.push(polygonPaths(polygon));
  return out;
}

/** Cutters with this many sides or more lose the sides they share first (shared-sides.ts); fewer are not worth it. */
const MERGE_SIDES = 256;

/** Areas with up to this many sides are tested against each cutter before Clipper sees it. */
const DISJOINT_TEST_SIDES = 128;

function sidesOf(paths: Paths64): number {
  let n = 0;
  for (const p of paths) n += p.length;
  return n;
}

/** Appends a cutter's paths cut to the box, unless it certainly does not overlap `subject` (disjoint.ts). */
function addCutter(box: Rect64, paths: Paths64, b: Rect64, subject: Paths64 | null, cutters: Paths64): void {
  if (!subject) {
    cutInto(box, paths, b, cutters);
    return;
  }
  const cut: Paths64 = [];
  cutInto(box, paths, b, cut);
  if (cut.length === 0 || interiorsDisjoint(subject, cut)) return;
  for (const p of cut) cutters.push(p);
}

/** An area less the cutters (none: united with itself), cleaned; a polygon reaching a side of `edge` (the clip's box) is kept however small (clean-pieces.ts). */
function cutArea(subject: Paths64, cutters: Paths64, minWidth: number, minArea: number, edge: Rect64): Footprint[] {
  const clip = cutters.length === 0 ? null : sidesOf(cutters) >= MERGE_SIDES ? withoutSharedSides(cutters) : cutters;
  return cleanBoolean(clip ? ClipType.Difference : ClipType.Union, subject, clip, minWidth, minArea, undefined, undefined, edge);
}

/** Slivers narrower than this (metres) are rounding noise (a crossing point Clipper put on the grid kinks the sides beside it by under a millimetre; 100 m long needles along a slanted clip side): dropped, not merged. */
const NOISE_WIDTH = HAIRLINE;

interface Clip {
  paths: Paths64;
  bounds: Rect64;
  /** The clip is the axis-aligned rectangle `bounds` (a tile's square): RectClip does. */
  isBox: boolean;
}

/** Paths cut to the clip region; the very same array when they lie inside a rectangular clip. */
function clipped(paths: Paths64, b: Rect64, clip: Clip): Paths64 {
  if (clip.isBox && inside(b, clip.bounds)) return paths;
  return clip.isBox ? clipToBox(paths, clip.bounds) : Clipper.intersect(paths, clip.paths, FillRule.NonZero);
}

/** A bridge deck: only clipped (and opened where it has thin parts), neither cutting nor cut. */
function deckPieces(area: SurfaceArea, clip: Clip, minWidth: number, minArea: number): Footprint[] {
  const p = pathsOf(area.footprints);
  if (p.length === 0) return [];
  const inClip = clipped(p, Clipper.getBoundsPaths(p), clip);
  if (inClip.length === 0) return [];
  return inClip === p && area.footprints.length === 1 ? gridFootprints(inClip) : cleanBoolean(ClipType.Union, inClip, null, minWidth, minArea);
}

/**
 * Rank of each ground area (0 = wins over everything): higher priority first, then the smaller
 * mapped area (`size`), then the lower id as a string, then the earlier in the input.
 */
function precedence(areas: readonly SurfaceArea[], ground: readonly number[]): Int32Array {
  const sizes = ground.map((i) => areas[i].size ?? totalArea(areas[i].footprints));
  const ids = ground.map((i) => String(areas[i].descriptor.id ?? ''));
  const order = ground
    .map((_, k) => k)
    .sort((p, q) => areas[ground[q]].priority - areas[ground[p]].priority || sizes[p] - sizes[q] || (ids[p] < ids[q] ? -1 : ids[p] > ids[q] ? 1 : 0) || p - q);
  const rank = new Int32Array(ground.length);
  order.forEach((k, r) => {
    rank[k] = r;
  });
  return rank;
}
