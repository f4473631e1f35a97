import { Clipper, ClipType, EndType, FillRule, JoinType, PolyTree64, type Paths64 } from 'clipper2-ts';
import Flatbush from 'flatbush';
import type { Footprint, Ring } from '../types.ts';
import { flatBounds, pointInRing, ringArea } from '../ring.ts';
import { triangulateFootprint } from '../triangulate/index.ts';
import { CLIPPER_SCALE, footprintPaths, footprintsFromTree } from '../planar/clipper-paths.ts';

/**
 * Simple 3D Buildings: a `building` outline with `building:part`s inside it. The parts carry the
 * volume; the outline is kept only for the area its parts leave uncovered. Pure geometry.
 */

/** A point strictly inside the footprint: the centroid of its largest triangle. */
export function interiorPoint(footprint: Footprint): [number, number] {
  const { coords, triangles } = triangulateFootprint(footprint);
  let best = -1,
    bestArea = -1;
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t],
      b = triangles[t + 1],
      c = triangles[t + 2];
    const area = Math.abs(
      (coords[2 * b] - coords[2 * a]) * (coords[2 * c + 1] - coords[2 * a + 1]) - (coords[2 * b + 1] - coords[2 * a + 1]) * (coords[2 * c] - coords[2 * a]),
    );
    if (area > bestArea) {
      bestArea = area;
      best = t;
    }
  }
  if (best < 0) return [footprint.outer[0], footprint.outer[1]];
  const [a, b, c] = [triangles[best], triangles[best + 1], triangles[best + 2]];
  return [(coords[2 * a] + coords[2 * b] + coords[2 * c]) / 3, (coords[2 * a + 1] + coords[2 * b + 1] + coords[2 * c + 1]) / 3];
}

export function footprintContains(footprint: Footprint, x: number, y: number): boolean {
  return pointInRing(x, y, footprint.outer) && !footprint.holes.some((h) => pointInRing(x, y, h));
}

export function footprintArea(footprint: Footprint): number {
  return footprint.holes.reduce((a, h) => a - ringArea(h), ringArea(footprint.outer));
}

/**
 * Explicit membership (OSM `type=building` relations): for each outline the relations that list it
 * as `outline`, for each part those that list it as `part` (any ids, compared as strings).
 */
export interface PartRelations {
  outlines: readonly (readonly string[])[];
  parts: readonly (readonly string[])[];
}

/**
 * For each part, the index of the outline it belongs to, or -1 for a part that stands on its own.
 * A part that shares a relation with some outline belongs to it whatever the geometry (the smallest
 * such outline if several, the first on a tie); any other part belongs to the smallest outline
 * containing a point inside it (first on a tie). Outlines are found through a Flatbush index of
 * their boxes, so a city of n outlines and m parts costs about (n + m) log n, not n × m.
 */
export function assignPartsToOutlines(outlines: readonly Footprint[][], parts: readonly Footprint[][], relations?: PartRelations): number[] {
  const areas = outlines.map((fps) => fps.reduce((a, f) => a + footprintArea(f), 0));
  const outlinesOf = new Map<string, number[]>();
  relations?.outlines.forEach((ids, o) => {
    for (const id of ids) {
      const list = outlinesOf.get(id);
      if (!list) outlinesOf.set(id, [o]);
      else if (!list.includes(o)) list.push(o);
    }
  });
  const index = outlineIndex(outlines);
  const smaller = (o: number, best: number) => best < 0 || areas[o] < areas[best] || (areas[o] === areas[best] && o < best);
  return parts.map((partFootprints, p) => {
    let listed = -1;
    for (const id of relations?.parts[p] ?? []) {
      for (const o of outlinesOf.get(id) ?? []) if (smaller(o, listed)) listed = o;
    }
    if (listed >= 0) return listed;
    if (partFootprints.length === 0 || !index) return -1;
    const [x, y] = interiorPoint(partFootprints[0]);
    let best = -1;
    for (const k of index.search(x, y, x, y)) {
      const o = index.owner[k];
      if (smaller(o, best) && footprintContains(outlines[o][index.footprint[k]], x, y)) best = o;
    }
    return best;
  });
}

/** A Flatbush of every outline footprint's box, with which outline and footprint each entry is. */
function outlineIndex(outlines: readonly Footprint[][]) {
  const count = outlines.reduce((n, fps) => n + fps.length, 0);
  if (count === 0) return null;
  const tree = new Flatbush(count);
  const owner = new Int32Array(count),
    footprint = new Int32Array(count);
  outlines.forEach((fps, o) =>
    fps.forEach((f, k) => {
      const b = flatBounds(f.outer);
      const i = tree.add(b.minX, b.minY, b.maxX, b.maxY);
      owner[i] = o;
      footprint[i] = k;
    }),
  );
  tree.finish();
  return { search: (x0: number, y0: number, x1: number, y1: number) => tree.search(x0, y0, x1, y1), owner, footprint };
}

/** Same rings, vertex for vertex (normalised footprints of the same nodes in the same frame). */
function sameFootprint(a: Footprint, b: Footprint): boolean {
  if (a.holes.length !== b.holes.length || !sameRing(a.outer, b.outer)) return false;
  return a.holes.every((h, k) => sameRing(h, b.holes[k]));
}

function sameRing(a: Ring, b: Ring): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

export interface RemainderOptions {
  /** Strips of the outline narrower than this (metres) are mapping slop, not building. */
  minWidth: number;
  /** A remainder smaller than this share of the outline's area is dropped. */
  minShare: number;
}

export const REMAINDER_DEFAULTS: RemainderOptions = { minWidth: 0.5, minShare: 0.02 };

/**
 * The part of an outline that none of its parts cover, without slivers: outline − ∪parts, opened
 * by `minWidth` (shrunk then grown back, clipped to the difference), dropped when tiny.
 */
export function outlineRemainder(outline: readonly Footprint[], parts: readonly Footprint[], options: Partial<RemainderOptions> = {}): Footprint[] {
  const { minWidth, minShare } = { ...REMAINDER_DEFAULTS, ...options };
  // The common case of a part drawn on the outline's own nodes (a podium, a single-part building): nothing is left.
  if (outline.every((o) => parts.some((p) => sameFootprint(o, p)))) return [];
  const subject: Paths64 = outline.flatMap(footprintPaths);
  const clip: Paths64 = parts.flatMap(footprintPaths);
  // Parts whose edges run a fraction of a millimetre across the outline's can leave a degenerate
  // sliver wound the wrong way, outside every outer; the offset below takes its winding as the
  // whole set's and loses the remainder. Keeping only positive winding drops such slivers.
  const diff = withoutSpikes(Clipper.union(withoutSpikes(Clipper.difference(subject, clip, FillRule.NonZero)), FillRule.Positive));
  if (diff.length === 0) return [];
  const half = (minWidth / 2) * CLIPPER_SCALE;
  const shrunk = Clipper.inflatePaths(diff, -half, JoinType.Miter, EndType.Polygon);
  const opened = shrunk.length === 0 ? [] : withoutSpikes(Clipper.inflatePaths(shrunk, half, JoinType.Miter, EndType.Polygon));
  if (opened.length === 0) return [];
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Intersection, opened, diff, tree, FillRule.NonZero);
  const remainder = footprintsFromTree(tree);
  const total = outline.reduce((a, f) => a + footprintArea(f), 0);
  const left = remainder.reduce((a, f) => a + footprintArea(f), 0);
  return left < minShare * total ? [] : remainder;
}

/**
 * Clipper output fed into another boolean operation, without collinear vertices. Rounding
 * intersections onto the millimetre grid can leave a zero-width spike along a horizontal side (two
 * horizontal edges in a row, the second running back); clipper2-ts 2.0.1 sweeps the second in the
 * first's direction (it keeps `isLeftToRight` from the first edge, where the C++ Clipper2 resets
 * it), so a union or intersection with that ring returns a wrong sliver and the whole wing it
 * bounds is lost. Without collinear vertices no two horizontal edges follow each other, and
 * removing them changes no area.
 */
function withoutSpikes(paths: Paths64): Paths64 {
  return paths.map((p) => Clipper.trimCollinear(p)).filter((p) => p.length >= 3);
}
