import { Clipper, ClipType, FillRule, PolyTree64, type Path64, type Paths64, type PolyPath64, type Rect64 } from 'clipper2-ts';
import type { Footprint } from '../../types.ts';
import { openingMask } from '../../planar/local-opening.ts';
import { shrunkAndGrown } from '../../planar/offset.ts';
import { alongAny, type SideIndex } from './side-index.ts';
import { booleanPieces, netArea, piecePaths, piecesFromTree } from '../../planar/pieces.ts';
import { clipToBox, grown, inside } from '../../planar/boxes.ts';
import { CLIPPER_SCALE, ringPath } from '../../planar/clipper-paths.ts';
import { polygonFootprint, polygonPaths, treePolygons } from '../../planar/poly-tree.ts';
import { restoreFarHoles, splitFarHoles } from './far-holes.ts';
import { CUT, hasThinParts, OPEN, SPOT, spotBox } from './thin-parts.ts';

/**
 * The pieces of a boolean result, cleaned: polygons under `minArea` go, and a polygon is opened
 * (parts narrower than `minWidth` go, planar/pieces.ts `openPieces`) only when it has thin parts at all
 * (thin-parts.ts) — most have none and are kept as Clipper wrote them (specks dropped), needing no
 * check for crossing sides either: the thin-part test finds those too. A large polygon is opened
 * around its thin parts only (planar/local-opening.ts), and a cut leaves the holes far from it out of the
 * sweep (far-holes.ts).
 *
 * With `bordering` (the sides of the pieces, for the base ground), only thin parts with a side
 * running along one of those are cut (and hairlines, HAIRLINE): what is cut off the base ground
 * goes to the piece it touches (slivers.ts), and a thin part between buildings or along the clip,
 * touching no piece, would only go back into the base ground.
 *
 * With `edge` (the clip's box: a tile's square), a polygon reaching the box's side is kept however
 * small: it is the part in this tile of something that may go on in the next one, where the whole
 * is not small — dropped, it left the filler on a road's tip poking a few centimetres over a seam
 * in one tiling and not in another. The width rule applies to it as to any.
 */
export function cleanPieces(
  tree: PolyPath64,
  minWidth: number,
  minArea: number,
  removed?: Paths64,
  bordering?: SideIndex,
  edge?: Rect64,
  out: Footprint[] = [],
): Footprint[] {
  for (const polygon of treePolygons(tree)) {
    const fp = polygonFootprint(polygon);
    const area = fp ? netArea(fp) : 0;
    if (!fp || !(area > 0 && (area >= minArea || (edge !== undefined && reachesEdge(polygon.outer, edge))))) {
      if (removed) for (const p of polygonPaths(polygon)) removed.push(p);
      continue;
    }
    const rings = fp.holes.length ? [fp.outer, ...fp.holes] : [fp.outer];
    spots.length = 0;
    if (minWidth <= 0 || !hasThinParts(rings, minWidth, spots)) {
      out.push(fp);
      continue;
    }
    places.length = 0;
    cuts.length = 0;
    let open = false;
    for (let i = 0; i < spots.length; i += SPOT) {
      if (bordering && spots[i] === CUT && spots[i + 17] >= HAIRLINE && !alongAny(bordering, spots, i + 1) && !alongAny(bordering, spots, i + 5)) continue;
      spotBox(spots, i, places);
      if (spots[i] === OPEN) open = true;
      else {
        const q = quadPath(spots, i + 9);
        if (q) cuts.push(q);
      }
    }
    const lost: Paths64 | undefined = removed ? [] : undefined;
    const paths = polygonPaths(polygon);
    if (open) for (const f of openPolygon(paths, places, minWidth, minArea, lost, edge)) out.push(f);
    else if (cuts.length > 0) for (const f of cutPolygon(paths, cuts, minArea, lost, edge)) out.push(f);
    else out.push(fp);
    if (removed && lost!.length > 0) within(lost!, paths, removed);
  }
  return out;
}

/** Runs a boolean operation into a poly tree and returns its pieces cleaned (cleanPieces). */
export function cleanBoolean(
  op: ClipType,
  subject: Paths64,
  clip: Paths64 | null,
  minWidth: number,
  minArea: number,
  removed?: Paths64,
  bordering?: SideIndex,
  edge?: Rect64,
): Footprint[] {
  return cleanPieces(booleanTree(op, subject, clip), minWidth, minArea, removed, bordering, edge);
}

/** Whether the path's box reaches a side of `edge`. */
function reachesEdge(path: Path64, edge: Rect64): boolean {
  const b = Clipper.getBounds(path);
  return b.left <= edge.left || b.right >= edge.right || b.top <= edge.top || b.bottom >= edge.bottom;
}

function booleanTree(op: ClipType, subject: Paths64, clip: Paths64 | null): PolyTree64 {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(op, subject, clip, tree, FillRule.NonZero);
  return tree;
}

const spots: number[] = [];

/**
 * Thin parts narrower than this (metres) are rounding noise: what is cut off is dropped rather than
 * given to a piece (resolve-overlaps.ts), and with `bordering` they are cut wherever they are — a
 * hairline needle left in a polygon is one a mesh can only drop.
 */
export const HAIRLINE = 0.002;
const places: number[] = [];
const cuts: Paths64 = [];

/**
 * The opening of one polygon (its paths, outer then holes) with thin parts at `spots`, around them
 * only when it is large (planar/local-opening.ts); what it takes off is appended to `removed`. The pieces
 * are valid (rebuilt where Clipper left sides crossing).
 */
function openPolygon(paths: Paths64, spots: readonly number[], minWidth: number, minArea: number, removed?: Paths64, edge?: Rect64): Footprint[] {
  const local = openingMask(paths, spots, minWidth);
  const mask = local ? local.mask : shrunkAndGrown(paths, minWidth);
  if (removed) for (const p of local ? local.lost : Clipper.difference(paths, mask, FillRule.NonZero)) removed.push(p);
  return mask.length ? large(booleanPieces(ClipType.Intersection, mask, paths), minArea, removed, edge) : [];
}

/**
 * A polygon (its paths) with its thin parts cut away: the quadrilaterals of thin-parts.ts between
 * the sides that face each other, which is what the opening takes there, at the cost of one sweep;
 * what goes is appended to `removed`. With `split`, only the outer ring and the holes near the
 * quadrilaterals are swept and the far holes put back (far-holes.ts).
 */
function cutPolygon(paths: Paths64, quads: Paths64, minArea: number, removed?: Paths64, edge?: Rect64): Footprint[] {
  let split = splitFarHoles(
    paths,
    quads.map((q) => Clipper.getBounds(q)),
  );
  let pieces = differencePieces(split ? split.near : paths, quads);
  if (split && !restoreFarHoles(pieces, split.far)) {
    pieces = differencePieces(paths, quads);
    split = null;
  }
  if (removed) {
    // what is cut off lies within the quadrilaterals' box (clipper2-ts can return a stray path
    // far off when a quadrilateral is nearly degenerate: left out)
    const box = grown(Clipper.getBoundsPaths(quads), 1);
    for (const p of Clipper.intersect(clipToBox(split ? split.near : paths, box), quads, FillRule.NonZero))
      if (inside(Clipper.getBounds(p), box)) removed.push(p);
  }
  return large(pieces, minArea, removed, edge);
}

function differencePieces(paths: Paths64, quads: Paths64): Footprint[] {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Difference, paths, quads, tree, FillRule.NonZero);
  return piecesFromTree(tree);
}

/** The quadrilateral at `i` in `spots` (four x, y in metres) as a positive path on the grid. */
function quadPath(spots: readonly number[], i: number): Path64 | null {
  const p: Path64 = [];
  for (let k = 0; k < 4; k++) {
    const x = Math.round(spots[i + 2 * k] * CLIPPER_SCALE),
      y = Math.round(spots[i + 2 * k + 1] * CLIPPER_SCALE);
    if (p.length === 0 || x !== p[p.length - 1].x || y !== p[p.length - 1].y) p.push({ x, y });
  }
  if (p.length > 1 && p[0].x === p[p.length - 1].x && p[0].y === p[p.length - 1].y) p.pop();
  const a = p.length >= 3 ? Clipper.area(p) : 0;
  if (a === 0) return null;
  if (a < 0) p.reverse();
  return p;
}

/**
 * Appends what was taken off a polygon, less whatever of it lies outside the polygon (specks
 * dropped at concave corners, the two operations rounding crossing points apart): the base
 * ground's slivers go to other pieces and must not reach into buildings.
 */
function within(lost: Paths64, polygon: Paths64, removed: Paths64): void {
  const near = clipToBox(polygon, grown(Clipper.getBoundsPaths(lost), 1));
  for (const p of Clipper.intersect(lost, near, FillRule.NonZero)) removed.push(p);
}

/** The pieces of at least `minArea`, or reaching a side of `edge` (cleanPieces); the others appended to `removed`. */
function large(pieces: Footprint[], minArea: number, removed?: Paths64, edge?: Rect64): Footprint[] {
  if (minArea <= 0) return pieces;
  const out: Footprint[] = [];
  for (const f of pieces) {
    if (netArea(f) >= minArea || (edge !== undefined && reachesEdge(ringPath(f.outer), edge))) out.push(f);
    else if (removed) piecePaths([f], removed);
  }
  return out;
}
