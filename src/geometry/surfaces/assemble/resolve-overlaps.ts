import { Clipper, ClipType, EndType, FillRule, JoinType, type Paths64, type Rect64 } from 'clipper2-ts';
import Flatbush from 'flatbush';
import type { Footprint } from '../../types.ts';
import type { SurfaceArea } from '../types.ts';
import { BASE_GROUND_PRIORITY } from '../priority.ts';
import { booleanPieces, gridFootprints, isAxisRectangle, openPieces, pathsOf, piecePaths, totalArea } from './pieces.ts';

export interface ResolveOverlapsOptions {
  /** Building footprints: cut out of every ground-level piece (not out of bridge decks). */
  cutOut: readonly Footprint[];
  /** The region the ground covers: the tile's square, or tile ∩ request polygon. */
  clip: Footprint;
  /** Pieces (single polygons) smaller than this are dropped, m². Default 0.05. */
  minArea?: number;
  /** Parts of a piece narrower than this are dropped (morphological opening), metres. Default 0.05. */
  minWidth?: number;
}

export const RESOLVE_OVERLAPS_DEFAULTS = { minArea: 0.05, minWidth: 0.05 } as const;

/** Descriptor of the inferred base ground (priority.ts): whatever no mapped area covers. */
export const BASE_GROUND_DESCRIPTOR = { type: 'grass', inferred: true } as const;

/**
 * Makes the ground one set of non-overlapping pieces (issue 8, "No overlaps, no z-fighting").
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
 * with the base ground again.
 *
 * Exactness: Clipper2 works on the millimetre grid, and the pieces share their boundaries vertex for
 * vertex, except where Clipper puts a crossing point of two sides on the grid (it moves by up to a
 * millimetre): the sides into that point tilt, leaving a wedge less than a millimetre wide between
 * the piece and its neighbour (or the clip). Such wedges are the only overlaps and gaps: area at
 * most ~0.5 mm × the length of the side (up to ~0.01 m² along a 100 m side), nowhere 2 mm wide —
 * below the output's millimetre precision. Wedges left over as slivers are dropped as noise rather
 * than merged. A piece whose sides Clipper left crossing (it happens on millimetre-sized features)
 * is rebuilt (pieces.ts), so every piece is a valid polygon.
 *
 * Speed: each area is differenced only against the cutters whose boxes overlap its own (Flatbush),
 * cut to its box first and united by the NonZero fill rule in the same operation; the kept pieces
 * are disjoint, so the sweep sees no crossings among the cutters (mapped areas overlap each other
 * all the time).
 *
 * Bridge decks (`deck`) float above the ground: they are only clipped to `clip` (and opened), and
 * neither cut nor are cut by anything.
 *
 * Returns the surviving areas in input order with their new footprints (same kind, priority,
 * descriptor and deck), then the base ground (one area, when any is left). Footprints are valid
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
  const clipBounds = Clipper.getBoundsPaths(clipPaths);
  const clipIsBox = isAxisRectangle(options.clip);

  /** Clips paths to the clip region (nothing to do when they lie inside a rectangular clip). */
  const clipped = (paths: Paths64, bounds: Rect64): { paths: Paths64; changed: boolean } => {
    if (clipIsBox && inside(bounds, clipBounds)) return { paths, changed: false };
    return { paths: Clipper.intersect(paths, clipPaths, FillRule.NonZero), changed: true };
  };

  // Buildings, indexed by box.
  const buildingPaths: Paths64[] = [];
  const buildingBounds: Rect64[] = [];
  const buildingIndex = indexOf(options.cutOut.map((f) => {
    const paths = pathsOf([f]);
    buildingPaths.push(paths);
    buildingBounds.push(Clipper.getBoundsPaths(paths));
    return paths.length ? buildingBounds[buildingBounds.length - 1] : null;
  }));

  // Ground-level areas: paths, boxes and their precedence rank (0 = wins over everything).
  const ground: number[] = [];
  const decks: number[] = [];
  areas.forEach((a, i) => (a.deck ? decks : ground).push(i));
  const paths: Paths64[] = ground.map((i) => pathsOf(areas[i].footprints));
  const bounds: (Rect64 | null)[] = paths.map((p) => (p.length ? Clipper.getBoundsPaths(p) : null));
  const sizes = ground.map((i) => totalArea(areas[i].footprints));
  const ids = ground.map((i) => String(areas[i].descriptor.id ?? ''));
  const order = ground.map((_, k) => k).sort((p, q) =>
    areas[ground[q]].priority - areas[ground[p]].priority || sizes[p] - sizes[q] || (ids[p] < ids[q] ? -1 : ids[p] > ids[q] ? 1 : 0) || p - q);
  const rank = new Int32Array(ground.length);
  order.forEach((k, r) => { rank[k] = r; });
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
    if (!b || !overlaps(b, clipBounds)) continue;
    const own = clipped(paths[k], b);
    let subject = own.paths, changed = own.changed;
    if (subject.length === 0) continue;
    const box: Rect64 = { left: b.left - 1, top: b.top - 1, right: b.right + 1, bottom: b.bottom + 1 };
    const cutters: Paths64 = [];
    for (const j of search(buildingIndex, b)) cutInto(box, buildingPaths[j], buildingBounds[j], cutters);
    for (const j of search(areaIndex, b)) if (rank[j] < rank[k] && keptPaths[j]) cutInto(box, keptPaths[j]!, keptBounds[j]!, cutters);
    if (cutters.length > 0) {
      const before = Clipper.areaPaths(subject);
      subject = Clipper.difference(subject, cutters, FillRule.NonZero);
      // cutters whose boxes overlap but whose polygons do not (or only touch) leave it as it was
      if (Clipper.areaPaths(subject) !== before) changed = true;
      else subject = own.paths;
    }
    if (subject.length === 0) continue;
    // A single-polygon area nothing cut keeps its mapped footprint (on the grid); anything cut, or
    // several polygons that might overlap one another, is rebuilt by Clipper and opened.
    const pieces = changed || areas[ground[k]].footprints.length > 1 ? openPieces(subject, minWidth, minArea) : gridFootprints(subject);
    if (pieces.length > 0) { kept[k] = pieces; keptPaths[k] = piecePaths(pieces); keptBounds[k] = Clipper.getBoundsPaths(keptPaths[k]!); }
  }

  // The base ground: what neither buildings nor any kept piece cover.
  const covered: Paths64 = [];
  for (const b of buildingPaths) for (const p of b) covered.push(p);
  for (const p of keptPaths) if (p) for (const q of p) covered.push(q);
  const restPaths = Clipper.difference(clipPaths, covered, FillRule.NonZero);
  let base = openPieces(restPaths, minWidth, minArea);
  // What the opening took off the base ground, less rounding noise: a crossing point Clipper put on
  // the grid kinks the sides beside it by under a millimetre, and the difference returns those
  // wedges too (100 m long needles along a slanted clip side); they are dropped, not merged.
  const slivers = openPieces(Clipper.difference(restPaths, piecePaths(base), FillRule.NonZero), NOISE_WIDTH, 0);
  if (slivers.length > 0) {
    const left = mergeSlivers(slivers, kept, keptPaths, keptBounds, rank);
    // slivers touching no piece (between buildings, along the clip) go back into the base ground
    if (left.length > 0) base = booleanPieces(ClipType.Union, piecePaths(base), piecePaths(left));
  }

  const out: SurfaceArea[] = [];
  const keptByInput = new Map<number, Footprint[]>();
  kept.forEach((pieces, k) => { if (pieces) keptByInput.set(ground[k], pieces); });
  const deckSet = new Set(decks);
  areas.forEach((area, i) => {
    if (deckSet.has(i)) {
      const p = pathsOf(area.footprints);
      if (p.length === 0) return;
      const { paths: inClip, changed } = clipped(p, Clipper.getBoundsPaths(p));
      const pieces = changed || area.footprints.length > 1 ? openPieces(inClip, minWidth, minArea) : gridFootprints(inClip);
      if (pieces.length > 0) out.push({ ...area, footprints: pieces });
      return;
    }
    const pieces = keptByInput.get(i);
    if (pieces) out.push({ ...area, footprints: pieces });
  });
  if (base.length > 0) {
    out.push({ kind: 'grass', priority: BASE_GROUND_PRIORITY, footprints: base, descriptor: { ...BASE_GROUND_DESCRIPTOR } });
  }
  return out;
}

/** Slivers narrower than this (metres) are rounding noise (see the base ground above). */
const NOISE_WIDTH = 0.002;

/** Grown by 2 mm, a sliver overlaps a piece it shares at least 1 cm of boundary with by this much (grid units², i.e. mm²). */
const MIN_TOUCH = 20;

/**
 * Gives each sliver to the touching kept piece of highest precedence (united with it); returns the
 * slivers that touch none. Touching = sharing at least a centimetre of boundary on the millimetre
 * grid (tested by growing the sliver by 2 mm and intersecting), not just a corner.
 */
function mergeSlivers(slivers: Footprint[], kept: (Footprint[] | null)[], keptPaths: (Paths64 | null)[], keptBounds: (Rect64 | null)[], rank: Int32Array): Footprint[] {
  const owners: number[] = [];
  kept.forEach((pieces, k) => { if (pieces) owners.push(k); });
  const index = indexOf(owners.map((k) => keptBounds[k]));
  const gifts = new Map<number, Paths64>();
  const left: Footprint[] = [];
  for (const sliver of slivers) {
    const sp = piecePaths([sliver]);
    const b = Clipper.getBoundsPaths(sp);
    const box: Rect64 = { left: b.left - 3, top: b.top - 3, right: b.right + 3, bottom: b.bottom + 3 };
    const grown = Clipper.inflatePaths(sp, 2, JoinType.Miter, EndType.Polygon);
    // candidates by precedence: the first that touches wins
    const candidates = search(index, box).map((o) => owners[o]).sort((p, q) => rank[p] - rank[q]);
    let best = -1;
    for (const k of candidates) {
      const near: Paths64 = [];
      cutInto(box, keptPaths[k]!, keptBounds[k]!, near);
      if (near.length === 0) continue;
      const touch = Clipper.intersect(grown, near, FillRule.NonZero);
      if (Math.abs(Clipper.areaPaths(touch)) >= MIN_TOUCH) { best = k; break; }
    }
    if (best < 0) { left.push(sliver); continue; }
    const list = gifts.get(best) ?? [];
    for (const p of sp) list.push(p);
    gifts.set(best, list);
  }
  // A sliver comes out of Clipper with sides crossing by a fraction of a millimetre now and then
  // (needles between nearly coincident sides); whatever of it reaches into another piece goes.
  const outsideOthers = (paths: Paths64, self: number): Paths64 => {
    const b = Clipper.getBoundsPaths(paths);
    const box: Rect64 = { left: b.left - 3, top: b.top - 3, right: b.right + 3, bottom: b.bottom + 3 };
    const others: Paths64 = [];
    for (const o of search(index, box)) if (owners[o] !== self) cutInto(box, keptPaths[owners[o]]!, keptBounds[owners[o]]!, others);
    return others.length ? Clipper.difference(paths, others, FillRule.NonZero) : paths;
  };
  for (const [k, extra] of gifts) kept[k] = booleanPieces(ClipType.Union, keptPaths[k]!, outsideOthers(extra, k));
  return left.length ? booleanPieces(ClipType.Union, outsideOthers(piecePaths(left), -1), null) : [];
}

/** Appends `paths` cut to the box (a cutter outside the box cannot cut what lies inside it). */
function cutInto(box: Rect64, paths: Paths64, b: Rect64, out: Paths64): void {
  if (paths.length === 0) return;
  if (inside(b, box)) { for (const p of paths) out.push(p); return; }
  if (!overlaps(b, box)) return;
  for (const p of Clipper.rectClip(box, paths)) if (p.length >= 3) out.push(p);
}

function inside(a: Rect64, b: Rect64): boolean {
  return a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
}

function overlaps(a: Rect64, b: Rect64): boolean {
  return a.left <= b.right && a.right >= b.left && a.top <= b.bottom && a.bottom >= b.top;
}

/** A Flatbush index of boxes on the millimetre grid. */
function indexOf(boxes: readonly (Rect64 | null)[]): Flatbush | null {
  if (boxes.length === 0) return null;
  const index = new Flatbush(boxes.length);
  for (const b of boxes) {
    // An empty entry (no paths) gets a point box: whatever finds it has nothing to cut or merge.
    if (b) index.add(b.left, b.top, b.right, b.bottom);
    else index.add(0, 0, 0, 0);
  }
  index.finish();
  return index;
}

function search(index: Flatbush | null, b: Rect64): number[] {
  return index ? index.search(b.left, b.top, b.right, b.bottom) : [];
}
