import { Clipper, EndType, JoinType, type Path64, type Paths64 } from 'clipper2-ts';
import { CLIPPER_SCALE } from './clipper-paths.ts';

/** How much further the opening grows back than it shrank, in grid units (5 mm). */
export const OVERSHOOT = 5;

/**
 * The paths shrunk by half of `minWidth` (metres) and grown back OVERSHOOT further: their
 * intersection with the paths is the morphological opening (pieces.ts `openPieces`), their
 * difference what the opening takes off.
 *
 * Grown back exactly, the edges would lie within Clipper's rounding (a millimetre) of the original
 * ones, and intersecting two such nearly coincident boundaries leaves millimetre zigzags and
 * self-touching rings along every side.
 */
export function shrunkAndGrown(paths: Paths64, minWidth: number): Paths64 {
  const half = (minWidth / 2) * CLIPPER_SCALE;
  const shrunk = offset(paths, -half);
  if (shrunk.length === 0) return [];
  return offset(shrunk, half + OVERSHOOT);
}

/**
 * Clipper's polygon offset (mitred): outer rings (positive) grown by `delta` grid units, holes
 * shrunk. Clipper takes the orientation of the path with the lowest point for that of the outer
 * rings, and after a shrink, or in a window cut out of a polygon, a hole touching its outer ring
 * at the bottom can reach lower: everything would then be offset the wrong way. A small positive
 * square below everything, left out of the result, makes sure the lowest path is an outer one.
 */
export function offset(paths: Paths64, delta: number): Paths64 {
  if (paths.length === 0) return [];
  let maxY = -Infinity,
    minX = Infinity;
  for (const p of paths)
    for (const q of p) {
      if (q.y > maxY) maxY = q.y;
      if (q.x < minX) minX = q.x;
    }
  const y = maxY + 4 * Math.abs(delta) + ANCHOR,
    x = minX;
  const anchor: Path64 = [
    { x, y },
    { x: x + ANCHOR, y },
    { x: x + ANCHOR, y: y + ANCHOR },
    { x, y: y + ANCHOR },
  ];
  if (Clipper.area(anchor) < 0) anchor.reverse();
  const out: Paths64 = [];
  for (const p of Clipper.inflatePaths([...paths, anchor], delta, JoinType.Miter, EndType.Polygon)) {
    let top = Infinity;
    for (const q of p) if (q.y < top) top = q.y;
    if (top < y - 2 * Math.abs(delta) - 1) out.push(p);
  }
  return out;
}

/** Side of the square `offset` puts below the paths, grid units. */
const ANCHOR = 1000;
