import { Clipper, ClipType, FillRule, PolyTree64, type Paths64, type PolyPath64 } from 'clipper2-ts';
import type { Footprint, Ring } from '../types.ts';
import { CLIPPER_SCALE, ringPath } from './clipper-paths.ts';
import { signedArea2 } from '../ring.ts';
import { orientedRing, polygonFootprint, treePolygons } from './poly-tree.ts';
import { hasCrossingSides } from './crossing-sides.ts';
import { hasReversedLoop } from './reversed-loops.ts';
import { openingMask } from './local-opening.ts';
import { offset, shrunkAndGrown } from './offset.ts';

/**
 * Clipper2 plumbing for the ground pieces, on the millimetre grid of clipper-paths.ts.
 *
 * Unlike `footprintsFromTree`, the pieces are taken from Clipper's output as it is (oriented, and
 * only millimetre specks dropped), without the 1 cm vertex cleaning of `normalizeFootprint`: that
 * moves a boundary by up to a centimetre, an overlap with the neighbouring piece; Clipper's own
 * output on the integer grid shares its boundaries with the neighbours vertex for vertex.
 */

/** A footprint's rings as Clipper paths, outer positive and holes negative whatever the input's orientation (NonZero then unions overlapping paths correctly). */
export function orientedPaths(footprint: Footprint, out: Paths64 = []): Paths64 {
  pushOriented(footprint.outer, true, out);
  for (const h of footprint.holes) pushOriented(h, false, out);
  return out;
}

function pushOriented(ring: Ring, positive: boolean, out: Paths64): void {
  if (ring.length < 6) return;
  const path = ringPath(ring);
  if (Clipper.area(path) > 0 !== positive) path.reverse();
  out.push(path);
}

/** Paths of many footprints in one list. */
export function pathsOf(footprints: readonly Footprint[]): Paths64 {
  const out: Paths64 = [];
  for (const f of footprints) orientedPaths(f, out);
  return out;
}

/** Net area of a footprint (outer minus holes), m². */
export function netArea(footprint: Footprint): number {
  let a = Math.abs(signedArea2(footprint.outer));
  for (const h of footprint.holes) a -= Math.abs(signedArea2(h));
  return a / 2;
}

export function totalArea(footprints: readonly Footprint[]): number {
  let a = 0;
  for (const f of footprints) a += netArea(f);
  return a;
}

/**
 * Polygons with holes from a poly tree, exactly as Clipper wrote them (islands in holes are
 * polygons of their own). Clipper puts crossing points on the integer grid, which on rare
 * millimetre-sized features leaves two sides of a result crossing, or a ring touching itself around
 * a lobe wound backwards outside the polygon (reversed-loops.ts); such a polygon is rebuilt once
 * (union, positive fill: a tiny reversed lobe goes) so every piece is a valid polygon.
 */
export function piecesFromTree(tree: PolyPath64, minArea = 0, repair = true, out: Footprint[] = []): Footprint[] {
  return collectPieces(tree, minArea, repair ? 0 : -1, out);
}

/** piecesFromTree, repairs `depth` deep already (−1: none). */
function collectPieces(tree: PolyPath64, minArea: number, depth: number, out: Footprint[]): Footprint[] {
  for (const polygon of treePolygons(tree)) {
    const fp = polygonFootprint(polygon);
    if (!fp) continue;
    const area = netArea(fp);
    if (!(area >= minArea && area > 0)) continue;
    const rings = fp.holes.length ? [fp.outer, ...fp.holes] : [fp.outer];
    if (depth >= 0 && (hasCrossingSides(rings) || hasReversedLoop(rings))) repairPiece(fp, minArea, depth, out);
    else out.push(fp);
  }
  return out;
}

/**
 * A piece whose sides cross, rebuilt: united with itself (positive fill, so a tiny reversed lobe
 * goes); when Clipper2 returns the crossing unchanged — it can miss a crossing of two nearly
 * parallel sides — opened by one grid unit (REPAIR_WIDTH, like openPieces: shrunk, grown back
 * further and intersected with the piece, so it never reaches outside), around the crossings only
 * when the piece is large (local-opening.ts): that drops what is under 2 mm wide, where such
 * crossings are (closing instead would fill the gap between nearly coincident sides — into the
 * neighbour). Still crossing after REPAIR_DEPTH rounds (the intersection rounds crossing points
 * too), the piece is shrunk by a grid unit and grown back, which moves every vertex by up to half
 * a unit: within the output's precision, but along all of a large piece's boundary.
 */
function repairPiece(fp: Footprint, minArea: number, depth: number, out: Footprint[]): void {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(ClipType.Union, piecePaths([fp]), null, tree, FillRule.Positive);
  for (const f of collectPieces(tree, minArea, -1, [])) {
    const crossings: number[] = [];
    if (!hasCrossingSides(f.holes.length ? [f.outer, ...f.holes] : [f.outer], crossings)) {
      out.push(f);
      continue;
    }
    const paths = piecePaths([f]);
    const again = new PolyTree64();
    if (depth < REPAIR_DEPTH) {
      const mask = openingMask(paths, crossings, REPAIR_WIDTH)?.mask ?? shrunkAndGrown(paths, REPAIR_WIDTH);
      Clipper.booleanOpWithPolyTree(ClipType.Intersection, mask, paths, again, FillRule.NonZero);
      collectPieces(again, minArea, depth + 1, out);
    } else {
      Clipper.booleanOpWithPolyTree(ClipType.Union, offset(offset(paths, -1), 1), null, again, FillRule.Positive);
      collectPieces(again, minArea, -1, out);
    }
  }
}

/** Rounds of local repair before a piece is opened whole; the width they open by (one grid unit each side), metres. */
const REPAIR_DEPTH = 2;
const REPAIR_WIDTH = 2 / CLIPPER_SCALE;

/** Runs a boolean operation into a poly tree and returns its pieces. */
export function booleanPieces(op: ClipType, subject: Paths64, clip: Paths64 | null, minArea = 0): Footprint[] {
  const tree = new PolyTree64();
  Clipper.booleanOpWithPolyTree(op, subject, clip, tree, FillRule.NonZero);
  return piecesFromTree(tree, minArea);
}

/**
 * Morphological opening: the parts of `paths` narrower than `minWidth` (metres) go, the rest keeps
 * its exact boundary (shrink by half the width, grow back, intersect with the original — the
 * opening of the building outline remainder in src/geometry/buildings/parts.ts). Polygons smaller
 * than `minArea` (m²) are dropped too.
 *
 * The shape is grown back OVERSHOOT further than it was shrunk (offset.ts).
 */
export function openPieces(paths: Paths64, minWidth: number, minArea: number): Footprint[] {
  if (paths.length === 0) return [];
  if (minWidth <= 0) return booleanPieces(ClipType.Union, paths, null, minArea);
  const opened = shrunkAndGrown(paths, minWidth);
  if (opened.length === 0) return [];
  return booleanPieces(ClipType.Intersection, opened, paths, minArea);
}

/** Paths of pieces produced by this module (already oriented on the grid). */
export function piecePaths(pieces: readonly Footprint[], out: Paths64 = []): Paths64 {
  for (const p of pieces) {
    out.push(ringPath(p.outer));
    for (const h of p.holes) out.push(ringPath(h));
  }
  return out;
}

/** True when the footprint is the axis-aligned rectangle it spans (then a box test replaces clipping). */
export function isAxisRectangle(footprint: Footprint): boolean {
  if (footprint.holes.length > 0 || footprint.outer.length !== 8) return false;
  const r = footprint.outer;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    if (r[2 * i] !== r[2 * j] && r[2 * i + 1] !== r[2 * j + 1]) return false;
  }
  return true;
}

/**
 * One valid polygon's paths (outer first, then its holes, as `orientedPaths` makes them) back as a
 * footprint on the millimetre grid, so that it meets the pieces Clipper made without a gap or an
 * overlap. Consecutive duplicate vertices that the rounding made are merged.
 */
export function gridFootprints(paths: Paths64): Footprint[] {
  if (paths.length === 0) return [];
  const rings: Ring[] = [];
  for (let r = 0; r < paths.length; r++) {
    const dedup = paths[r].filter((p, i, a) => {
      const q = a[(i + a.length - 1) % a.length];
      return p.x !== q.x || p.y !== q.y;
    });
    const ring = orientedRing(dedup, r === 0);
    if (ring) rings.push(ring);
    else if (r === 0) return [];
  }
  return [{ outer: rings[0], holes: rings.slice(1) }];
}

export { hasCrossingSides };
